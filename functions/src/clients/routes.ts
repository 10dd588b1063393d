import { defineRoute } from '../http';
import { splitPageQuery } from '../shared';
import {
  BindDomainBody,
  Client,
  ClientList,
  ClientParams,
  CreateClientBody,
  DomainParams,
  EmailDomain,
  EmailDomainList,
  ListClientsQuery,
  UpdateClientBody,
} from './schemas';
import * as service from './service';

export const clientRoutes = [
  defineRoute({
    method: 'get',
    path: '/clients',
    summary: 'List clients (organizations)',
    tag: 'Clients',
    access: ['super_admin'],
    query: ListClientsQuery,
    success: { status: 200, description: 'A page of clients, by name', schema: ClientList },
    handler: async ({ query }) => {
      const { page, filters } = splitPageQuery(query);
      return { status: 200, body: await service.listClients(filters, page) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/clients',
    summary: 'Create a client',
    tag: 'Clients',
    access: ['super_admin'],
    sensitive: true,
    body: CreateClientBody,
    success: { status: 201, description: 'The new client, active', schema: Client },
    errors: ['CONFLICT'],
    handler: async ({ body }) => ({ status: 201, body: await service.createClient(body) }),
  }),
  defineRoute({
    method: 'get',
    path: '/clients/{clientId}',
    summary: 'Read a client',
    description: 'A Client Admin or Student reads its own organization only.',
    tag: 'Clients',
    access: ['super_admin', 'client_admin', 'student'],
    params: ClientParams,
    success: { status: 200, description: 'The client', schema: Client },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params }) => ({
      status: 200,
      body: await service.readClient(principal, params.clientId),
    }),
  }),
  defineRoute({
    method: 'patch',
    path: '/clients/{clientId}',
    summary: 'Change a client',
    description: 'A Client Admin may change its own name, address and logo; only a Super Admin changes active_status.',
    tag: 'Clients',
    access: ['super_admin', 'client_admin'],
    params: ClientParams,
    body: UpdateClientBody,
    success: { status: 200, description: 'The client as changed', schema: Client },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params, body }) => ({
      status: 200,
      body: await service.changeClient(principal, params.clientId, body),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/clients/{clientId}/domains',
    summary: "List an organization's email domains",
    description:
      'The email domains bound to the organization: a first sign-in with a Google or Microsoft account of one of them joins it as a student (see POST /users/me/join).',
    tag: 'Clients',
    access: ['super_admin'],
    params: ClientParams,
    success: { status: 200, description: 'Its domains, by domain', schema: EmailDomainList },
    errors: ['NOT_FOUND'],
    handler: async ({ params }) => ({ status: 200, body: await service.listEmailDomains(params.clientId) }),
  }),
  defineRoute({
    method: 'post',
    path: '/clients/{clientId}/domains',
    summary: 'Bind an email domain to an organization',
    description:
      'A domain belongs to one organization on the whole platform: claimed once, atomically. Binding it again to the organization holding it answers 200; to another, 409. Not a domain, or a public mail service (gmail.com, outlook.com, yahoo.*, …), is 400. Audited (email_domain_bound).',
    tag: 'Clients',
    access: ['super_admin'],
    sensitive: true,
    params: ClientParams,
    body: BindDomainBody,
    success: {
      status: 201,
      description: 'The domain, bound (200 when it was already bound here)',
      schema: EmailDomain,
    },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params, body, call }) => {
      const { domain, created } = await service.bindEmailDomain(principal, params.clientId, body.domain, call);
      return { status: created ? 201 : 200, body: domain };
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/clients/{clientId}/domains/{domain}',
    summary: 'Unbind an email domain',
    description:
      'Accounts that joined through it stay members; new sign-ins of the domain are refused until it is bound again. Audited (email_domain_unbound).',
    tag: 'Clients',
    access: ['super_admin'],
    sensitive: true,
    params: DomainParams,
    success: { status: 204, description: 'Unbound' },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, call }) => {
      await service.unbindEmailDomain(principal, params.clientId, params.domain, call);
      return { status: 204 };
    },
  }),
];
