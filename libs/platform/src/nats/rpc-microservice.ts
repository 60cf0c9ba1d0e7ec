import { Catch, type INestMicroservice, type RpcExceptionFilter } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Logger } from 'pino';
import { throwError, type Observable } from 'rxjs';
import { PinoNestLogger } from '../logging/nest-logger';
import type { NatsRpcServer } from './rpc-server';

/**
 * Hands every handler error to NatsRpcServer unchanged. Nest's default RPC filter would replace it
 * with a generic "Internal server error", losing both a ServiceError's code and the cause of a crash.
 */
@Catch()
export class RpcPassthroughFilter implements RpcExceptionFilter {
  catch(exception: unknown): Observable<never> {
    return throwError(() => exception);
  }
}

/** A Nest microservice on NatsRpcServer, errors passed through to the transport. */
export async function createRpcMicroservice(module: unknown, server: NatsRpcServer, logger: Logger | false): Promise<INestMicroservice> {
  const app = await NestFactory.createMicroservice(module as never, { strategy: server, logger: logger ? new PinoNestLogger(logger) : false });
  app.useGlobalFilters(new RpcPassthroughFilter());
  return app;
}
