import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Logger } from '@mapi/platform';
import { toServiceError } from './error-mapping';

/** Nest's last word on every error it sees (404s and body parsing included): the envelope. */
@Catch()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const error = toServiceError(exception, this.logger);
    reply.status(error.status).header('content-type', 'application/json; charset=utf-8').send(error.toEnvelope());
  }
}
