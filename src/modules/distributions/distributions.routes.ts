import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { done, Envelope, IdResultSchema, MetaOnlySchema, ok } from '../../http/envelope.js';
import { originOf } from '../../http/origin.js';
import { PagedList, pagedResult, pageOf } from '../../http/paging.js';
import {
  getDistribution,
  historyStatus,
  isUnsubscribed,
  linkStatus,
  listRecipientViews,
  statsOf,
} from './distribution-reads.service.js';
import {
  ContactsPageQuery,
  CreateDistributionBodySchema,
  DistributionIdParams,
  DistributionSchema,
  FollowUpBodySchema,
  FollowUpResultSchema,
  HistorySchema,
  LinkSchema,
  ListDistributionsQuery,
  type RequestType,
  SpecFollowUpBodySchema,
  toDistribution,
} from './distributions.schemas.js';
import * as service from './distributions.service.js';

const tags = ['Distributions'];

export function registerDistributionRoutes(app: App, deps: Deps): void {
  app.post(
    '/distributions',
    {
      schema: {
        tags,
        summary: 'Create an e-mail distribution (sent by a job at sendDate)',
        body: CreateDistributionBodySchema,
        response: { 200: IdResultSchema },
      },
    },
    async (request) => {
      const base = originOf(request);
      return ok(request, {
        id: await service.createDistribution(deps, request.principal, request.body, base),
      });
    },
  );

  app.post(
    '/distributions/sms',
    {
      schema: {
        tags,
        summary: 'SMS distributions: refused, this server has no SMS transport (400 FW_DST_1)',
        response: { 200: IdResultSchema },
      },
    },
    async () => {
      throw service.smsRefused();
    },
  );

  app.get(
    '/distributions',
    {
      schema: {
        tags,
        summary: "List a survey's distributions",
        querystring: ListDistributionsQuery,
        response: { 200: Envelope(PagedList(DistributionSchema)) },
      },
    },
    async (request) => {
      const { query } = request;
      const page = pageOf(query);
      const rows = await service.listDistributions(
        deps,
        request.principal,
        {
          surveyId: query.surveyId,
          ...(query.distributionRequestType ? { requestType: query.distributionRequestType } : {}),
          ...(query.mailingListId ? { mailingListId: query.mailingListId } : {}),
          ...(query.sendStartDate ? { sendStartDate: query.sendStartDate } : {}),
          ...(query.sendEndDate ? { sendEndDate: query.sendEndDate } : {}),
        },
        page,
      );
      const elements = await Promise.all(
        rows.map(async (row) => toDistribution(row, await statsOf(deps.db, request.principal, row))),
      );
      return ok(request, pagedResult(request, page, elements));
    },
  );

  app.get(
    '/distributions/:distributionId',
    {
      schema: {
        tags,
        summary: 'Get a distribution with its stats',
        params: DistributionIdParams,
        response: { 200: Envelope(DistributionSchema) },
      },
    },
    async (request) => {
      const { row, stats } = await getDistribution(deps, request.principal, request.params.distributionId);
      return ok(request, toDistribution(row, stats));
    },
  );

  app.delete(
    '/distributions/:distributionId',
    {
      schema: {
        tags,
        summary: 'Cancel a distribution not sent yet',
        params: DistributionIdParams,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      await service.cancelDistribution(deps, request.principal, request.params.distributionId);
      return done(request);
    },
  );

  app.post(
    '/distributions/:distributionId',
    {
      schema: {
        tags,
        summary: 'Send a reminder, a thank-you, or the survey again to the recipients of a distribution',
        params: DistributionIdParams,
        body: SpecFollowUpBodySchema,
        response: { 200: Envelope(FollowUpResultSchema) },
      },
    },
    async (request) => {
      const { requestType, ...body } = request.body;
      const id = await service.createFollowUp(
        deps,
        request.principal,
        request.params.distributionId,
        requestType,
        body,
      );
      return ok(request, { id, distributionId: id });
    },
  );

  for (const [path, requestType, summary] of [
    ['reminders', 'Reminder', 'Send a reminder to the recipients who have not finished the survey'],
    ['thankyous', 'ThankYou', 'Send a thank-you to the recipients who finished the survey'],
  ] as [string, RequestType, string][]) {
    app.post(
      `/distributions/:distributionId/${path}`,
      {
        schema: {
          tags,
          summary,
          params: DistributionIdParams,
          body: FollowUpBodySchema,
          response: { 200: Envelope(FollowUpResultSchema) },
        },
      },
      async (request) => {
        const { distributionId } = request.params;
        const id = await service.createFollowUp(
          deps,
          request.principal,
          distributionId,
          requestType,
          request.body,
        );
        return ok(request, { id, distributionId: id });
      },
    );
  }

  app.get(
    '/distributions/:distributionId/links',
    {
      schema: {
        tags,
        summary: "Each recipient's survey link and status",
        params: DistributionIdParams,
        querystring: ContactsPageQuery,
        response: { 200: Envelope(PagedList(LinkSchema)) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { row, views } = await listRecipientViews(
        deps,
        request.principal,
        request.params.distributionId,
        page,
        request.query.surveyId,
      );
      const elements = views.map((view) => ({
        contactId: view.recipient.contact_id,
        link: view.link,
        linkExpiration: row.link_expires_at,
        status: linkStatus(view),
        firstName: view.recipient.first_name,
        lastName: view.recipient.last_name,
        email: view.recipient.email,
        externalDataReference: view.recipient.ext_ref,
        unsubscribed: isUnsubscribed(view.recipient),
      }));
      return ok(request, pagedResult(request, page, elements));
    },
  );

  app.get(
    '/distributions/:distributionId/history',
    {
      schema: {
        tags,
        summary: "Each recipient's delivery and survey history",
        params: DistributionIdParams,
        querystring: Type.Omit(ContactsPageQuery, ['surveyId']),
        response: { 200: Envelope(PagedList(HistorySchema)) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { row, views } = await listRecipientViews(
        deps,
        request.principal,
        request.params.distributionId,
        page,
      );
      const elements = views.map((view) => ({
        contactId: view.recipient.contact_id,
        contactLookupId: view.recipient.contact_lookup_id,
        distributionId: row.id,
        status: historyStatus(view),
        surveyLink: view.link,
        sentAt: view.recipient.sent_at,
        emailOpened: view.recipient.opened_at !== null,
        openedAt: view.recipient.opened_at,
        responseId: view.session?.responseId ?? null,
        responseStartedAt: view.session?.startedAt ?? null,
        responseCompletedAt: view.session?.finishedAt ?? null,
        surveySessionId: view.session?.sessionId ?? null,
        errorMessage: view.recipient.state === 'sent' ? null : view.recipient.reason,
      }));
      return ok(request, pagedResult(request, page, elements));
    },
  );
}
