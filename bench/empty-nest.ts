/**
 * The smallest NestJS app with the hub's two agent routes, doing nothing: a ceiling for the bench. A
 * report that asks to claim (`claim` in its body, the merged call) is answered with a next command.
 */
import { Body, Controller, HttpCode, Module, Post, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

@Controller('agent')
class EmptyAgentController {
  @Post('claim')
  @HttpCode(200)
  claim(): unknown {
    return { command: { id: 1, type: 'ensure_fields' }, settings_version: 1 };
  }

  @Post('commands/:id/result')
  @HttpCode(200)
  report(@Body() body: { claim?: unknown }): unknown {
    return body.claim === undefined ? {} : { status: 'done', next: { command: { id: 1, type: 'ensure_fields' }, settings_version: 1 } };
  }
}

@Module({ controllers: [EmptyAgentController] })
class EmptyModule {}

export async function emptyNestApp(): Promise<INestApplication> {
  const app = await NestFactory.create(EmptyModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  return app;
}
