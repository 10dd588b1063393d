import { defineRoute } from '../http';
import { splitPageQuery } from '../shared';
import { Client, ClientList, ClientParams, CreateClientBody, ListClientsQuery, UpdateClientBody } from './schemas';
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
];
