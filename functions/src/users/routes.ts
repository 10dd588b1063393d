import { defineRoute } from '../http/route';
import { splitPageQuery } from '../shared/pagination';
import { CreateUserBody, ListUsersQuery, UpdateUserBody, User, UserPage, UserParams } from './schemas';
import * as service from './service';

const ADMINS = ['super_admin', 'client_admin'] as const;

export const userRoutes = [
  defineRoute({
    method: 'get',
    path: '/users',
    summary: 'List users of an organization',
    description:
      'A Super Admin names client_id (404 when no such client exists; or role=super_admin to list Super Admins); a Client Admin sees its own organization.',
    tag: 'Users',
    access: ADMINS,
    query: ListUsersQuery,
    success: { status: 200, description: 'A page of users, by email', schema: UserPage },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, query }) => {
      const { page, filters } = splitPageQuery(query);
      return { status: 200, body: await service.listUsers(principal, filters, page) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/users',
    summary: 'Create a user',
    description: 'A Client Admin creates client_admin or student accounts in its own organization; never super_admin.',
    tag: 'Users',
    access: ADMINS,
    sensitive: true,
    body: CreateUserBody,
    success: { status: 201, description: 'The new user', schema: User },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, body, call }) => ({
      status: 201,
      body: await service.createUser(principal, body, call),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/users/{uid}',
    summary: 'Read a user',
    description: 'A Student may read only itself.',
    tag: 'Users',
    access: ['super_admin', 'client_admin', 'student'],
    params: UserParams,
    success: { status: 200, description: 'The user', schema: User },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params }) => ({ status: 200, body: await service.readUser(principal, params.uid) }),
  }),
  defineRoute({
    method: 'patch',
    path: '/users/{uid}',
    summary: 'Change a user',
    description: 'A role change or disabling revokes the user’s refresh tokens, so the next token carries the change.',
    tag: 'Users',
    access: ADMINS,
    sensitive: true,
    params: UserParams,
    body: UpdateUserBody,
    success: { status: 200, description: 'The user as changed', schema: User },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, body, call }) => ({
      status: 200,
      body: await service.updateUser(principal, params.uid, body, call),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/users/{uid}',
    summary: 'Delete a user',
    tag: 'Users',
    access: ADMINS,
    sensitive: true,
    params: UserParams,
    success: { status: 204, description: 'Deleted' },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, call }) => {
      await service.deleteUser(principal, params.uid, call);
      return { status: 204 };
    },
  }),
];
