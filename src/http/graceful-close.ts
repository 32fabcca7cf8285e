import type { FastifyInstance } from 'fastify';

/**
 * While closing, answers carry `Connection: close`. Without it a keep-alive connection whose request was
 * in flight when close began goes idle afterwards and holds the server open until its keep-alive timeout.
 */
export function closeConnectionsWhenClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Callback style, not async: this runs on every response.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
}
