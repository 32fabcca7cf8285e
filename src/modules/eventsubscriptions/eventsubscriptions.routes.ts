import type { Deps } from '../../deps.js';
import type { App } from '../../http/app-types.js';
import { done, Envelope, IdResultSchema, MetaOnlySchema, ok } from '../../http/envelope.js';
import { emptyBodyAsObject } from '../../http/optional-body.js';
import { PagedList, PagingQuery, pagedResult, pageOf } from '../../http/paging.js';
import { limitClass } from '../../http/rate-limit.js';
import {
  CreateSubscriptionBodySchema,
  DeliveryIdParams,
  DeliveryQuerySchema,
  DeliverySchema,
  EventSubscriptionSchema,
  ReplayBodySchema,
  ReplayResultSchema,
  SubscriptionIdParams,
  toEventSubscription,
} from './eventsubscriptions.schemas.js';
import * as service from './eventsubscriptions.service.js';

const tags = ['Event subscriptions'];

/** Spec 4.1, 4.2, 4.6; the delivery log, retry and replay are ours (issue 4, docs/events.md). */
export function registerEventSubscriptionRoutes(app: App, deps: Deps): void {
  app.post(
    '/eventsubscriptions',
    {
      config: { rateLimit: limitClass('eventSubscriptions') },
      schema: {
        tags,
        summary: 'Create an event subscription',
        body: CreateSubscriptionBodySchema,
        response: { 200: IdResultSchema },
      },
    },
    async (request) =>
      ok(request, { id: await service.createSubscription(deps, request.principal, request.body) }),
  );

  app.get(
    '/eventsubscriptions',
    {
      config: { rateLimit: limitClass('eventSubscriptions') },
      schema: {
        tags,
        summary: 'List event subscriptions',
        querystring: PagingQuery(),
        response: { 200: Envelope(PagedList(EventSubscriptionSchema)) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const rows = await service.listSubscriptions(deps, request.principal, page);
      return ok(request, pagedResult(request, page, rows.map(toEventSubscription)));
    },
  );

  app.delete(
    '/eventsubscriptions',
    {
      config: { rateLimit: limitClass('eventSubscriptions') },
      preValidation: emptyBodyAsObject,
      schema: {
        tags,
        summary: "Delete all of the organization's subscriptions",
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      await service.deleteAllSubscriptions(deps, request.principal);
      return done(request);
    },
  );

  app.get(
    '/eventsubscriptions/:eventSubscriptionId',
    {
      config: { rateLimit: limitClass('eventSubscriptions') },
      schema: {
        tags,
        summary: 'Get an event subscription',
        params: SubscriptionIdParams,
        response: { 200: Envelope(EventSubscriptionSchema) },
      },
    },
    async (request) => {
      const row = await service.getSubscription(deps, request.principal, request.params.eventSubscriptionId);
      return ok(request, toEventSubscription(row));
    },
  );

  app.delete(
    '/eventsubscriptions/:eventSubscriptionId',
    {
      config: { rateLimit: limitClass('eventSubscriptions') },
      preValidation: emptyBodyAsObject,
      schema: {
        tags,
        summary: 'Delete an event subscription',
        params: SubscriptionIdParams,
        response: { 200: MetaOnlySchema },
      },
    },
    async (request) => {
      await service.deleteSubscription(deps, request.principal, request.params.eventSubscriptionId);
      return done(request);
    },
  );

  app.get(
    '/eventsubscriptions/:eventSubscriptionId/deliveries',
    {
      config: { rateLimit: limitClass('eventSubscriptions') },
      schema: {
        tags,
        summary: 'The delivery log of a subscription, newest first, with every attempt',
        params: SubscriptionIdParams,
        querystring: DeliveryQuerySchema,
        response: { 200: Envelope(PagedList(DeliverySchema)) },
      },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { eventSubscriptionId } = request.params;
      const deliveries = await service.listDeliveries(
        deps,
        request.principal,
        eventSubscriptionId,
        page,
        request.query.status,
      );
      return ok(request, pagedResult(request, page, deliveries));
    },
  );

  app.post(
    '/eventsubscriptions/:eventSubscriptionId/deliveries/:deliveryId/retry',
    {
      config: { rateLimit: limitClass('eventSubscriptions') },
      preValidation: emptyBodyAsObject,
      schema: {
        tags,
        summary: 'Send one delivery again now, with a fresh retry schedule',
        params: DeliveryIdParams,
        response: { 200: Envelope(DeliverySchema) },
      },
    },
    async (request) => {
      const { eventSubscriptionId, deliveryId } = request.params;
      return ok(
        request,
        await service.retryDelivery(deps, request.principal, eventSubscriptionId, deliveryId),
      );
    },
  );

  app.post(
    '/eventsubscriptions/:eventSubscriptionId/deliveries/replay',
    {
      config: { rateLimit: limitClass('eventSubscriptions') },
      schema: {
        tags,
        summary: 'Send again every failed delivery of events recorded since a date',
        params: SubscriptionIdParams,
        body: ReplayBodySchema,
        response: { 200: Envelope(ReplayResultSchema) },
      },
    },
    async (request) => {
      const { eventSubscriptionId } = request.params;
      const requeued = await service.replayFailed(deps, request.principal, eventSubscriptionId, request.body);
      return ok(request, { requeued });
    },
  );
}
