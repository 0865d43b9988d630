/**
 * Security headers on every answer (issue 27, decision 0101), through helmet: a Content-Security-Policy
 * that lets a page load only the hub's own scripts, styles and connections and be framed by nobody
 * (`frame-ancestors 'none'`, and X-Frame-Options: DENY for older browsers), `nosniff`,
 * `Referrer-Policy: no-referrer`. No HSTS: the hub speaks plain HTTP; a TLS proxy in front sets it.
 */
import helmet from 'helmet';
import type { NextFunction, Request, Response } from 'express';

type Directives = Record<string, string[]>;

const BASE: Directives = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'"],
  // the dashboard's favicon is `data:,`; Swagger UI's icons are data: SVGs in its stylesheet
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/** Swagger UI's page (written by @nestjs/swagger) carries an inline `<style>` and a `style` attribute; its scripts are files. */
const DOCS: Directives = { ...BASE, styleSrc: ["'self'", "'unsafe-inline'"] };

const headers = (directives: Directives) =>
  helmet({
    contentSecurityPolicy: { useDefaults: false, directives },
    strictTransportSecurity: false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  });

/** The middleware: the strict policy everywhere, the one loosened for inline styles under /docs. */
export function securityHeaders(): (req: Request, res: Response, next: NextFunction) => void {
  const strict = headers(BASE);
  const docs = headers(DOCS);
  return (req, res, next) => (/^\/docs/i.test(req.path) ? docs : strict)(req, res, next);
}
