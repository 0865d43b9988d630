// class-validator's own files (src/common/validators.ts imports them one by one) ship no types of
// their own: each is typed as the package, whose index re-exports them all. A name a file does not
// export fails at the hub's start (ESM linking), so a wrong pairing cannot pass unnoticed.
declare module 'class-validator/cjs/*' {
  export * from 'class-validator';
}
