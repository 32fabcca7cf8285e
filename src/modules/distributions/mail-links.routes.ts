/**
 * The opt-out page and the open-tracking image, at the server root beside the survey pages (a recipient
 * has no API token): `GET /mail/optout/{token}` asks to confirm, `POST` to the same address opts out
 * (the page's button, or a mail client's RFC 8058 one-click POST of `List-Unsubscribe=One-Click`);
 * `GET /mail/open/{token}` answers a 1x1 GIF and records the open.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Deps } from '../../deps.js';
import { escapeHtml } from '../../escape-html.js';
import { optOut, recipientForToken, recordOpen } from './mail-links.service.js';

const PAGE_HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** The smallest transparent GIF. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

type Params = { token: string };

export async function registerMailLinkRoutes(app: FastifyInstance, deps: Deps): Promise<void> {
  await app.register(
    async (mail) => {
      // A one-click POST comes as a form (urlencoded or multipart): its body says nothing the URL does not.
      mail.addContentTypeParser('*', { bodyLimit: 64 * 1024 }, (_request, payload, done) => {
        payload.resume();
        payload.on('end', () => done(null, undefined));
        payload.on('error', (error) => done(error, undefined));
      });
      mail.get<{ Params: Params }>('/optout/:token', { schema: { hide: true } }, async (request, reply) => {
        const recipient = await recipientForToken(deps, request.params.token);
        if (!recipient) return unknownLink(reply);
        return page(
          reply,
          200,
          'Unsubscribe',
          `<p>Stop e-mail to ${escapeHtml(recipient.email ?? 'this address')} from this sender?</p>
<form method="post"><button type="submit">Unsubscribe</button></form>`,
        );
      });
      mail.post<{ Params: Params }>('/optout/:token', { schema: { hide: true } }, async (request, reply) => {
        if (!(await optOut(deps, request.params.token))) return unknownLink(reply);
        return page(
          reply,
          200,
          'You are unsubscribed',
          '<p>You will not get e-mail from this sender again.</p>',
        );
      });
      mail.get<{ Params: Params }>('/open/:token', { schema: { hide: true } }, async (request, reply) => {
        await recordOpen(deps, request.params.token);
        return reply
          .headers({ 'cache-control': 'no-store, private', 'x-content-type-options': 'nosniff' })
          .type('image/gif')
          .send(PIXEL);
      });
    },
    { prefix: '/mail' },
  );
}

function unknownLink(reply: FastifyReply): FastifyReply {
  return page(reply, 404, 'This link is not valid', '<p>Please check the link in your e-mail.</p>');
}

function page(reply: FastifyReply, status: number, title: string, body: string): FastifyReply {
  return reply
    .code(status)
    .headers(PAGE_HEADERS)
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head><body style="font-family:sans-serif;max-width:40em;margin:3em auto;padding:0 1em"><h1>${escapeHtml(title)}</h1>${body}</body></html>`,
    );
}
