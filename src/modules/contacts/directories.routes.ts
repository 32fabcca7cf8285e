import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { Envelope, ok } from '../../http/envelope.js';
import { PagedList, PagingQuery, pagedResult, pageOf } from '../../http/paging.js';
import { countContactsByDirectory } from './contacts.service.js';
import { DirectorySchema, toDirectory } from './directories.schemas.js';
import { listDirectories } from './directories.service.js';

export function registerDirectoryRoutes(app: App, deps: Deps): void {
  app.get(
    '/directories',
    {
      schema: {
        tags: ['Directories'],
        summary: "List the organization's directories (pools) with their contact counts",
        querystring: PagingQuery(),
        response: { 200: Envelope(PagedList(DirectorySchema)) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const rows = await listDirectories(deps.db, request.principal, page);
      const counts = await countContactsByDirectory(deps, request.principal);
      return ok(
        request,
        pagedResult(
          request,
          page,
          rows.map((row) => toDirectory(row, counts.get(row.id) ?? 0)),
        ),
      );
    },
  );
}
