import { QUESTION_BANK_ROLES } from '../auth';
import { defineRoute, type RouteDefinition } from '../http';
import { splitPageQuery } from '../shared';
import { CreateFolderBody, Folder, FolderPage, FolderParams, ListFoldersQuery, RenameFolderBody } from './schemas';
import * as service from './service';

const WHO =
  'Administrators only: Students and Guests get 403. A folder of another organization answers 403, an unknown one 404.';

export const folderRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'get',
    path: '/folders',
    summary: 'List folders of an organization',
    description: `A Super Admin names client_id (400 without it, 404 for an unknown client); a Client Admin sees its own organization, and naming another answers 403. Sorted by name, case-insensitively. ${WHO}`,
    tag: 'Folders',
    access: QUESTION_BANK_ROLES,
    query: ListFoldersQuery,
    success: { status: 200, description: 'A page of folders, by name', schema: FolderPage },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, query }) => {
      const { page, filters } = splitPageQuery(query);
      return { status: 200, body: await service.listFolders(principal, filters, page) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/folders',
    summary: 'Create a folder',
    description: `Names are unique within an organization, compared case- and space-insensitively (409 CONFLICT otherwise). ${WHO}`,
    tag: 'Folders',
    access: QUESTION_BANK_ROLES,
    body: CreateFolderBody,
    success: { status: 201, description: 'The new folder', schema: Folder },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, body }) => ({ status: 201, body: await service.createFolder(principal, body) }),
  }),
  defineRoute({
    method: 'patch',
    path: '/folders/{folderId}',
    summary: 'Rename a folder',
    description: `409 CONFLICT when another folder of the organization has that name. ${WHO}`,
    tag: 'Folders',
    access: QUESTION_BANK_ROLES,
    params: FolderParams,
    body: RenameFolderBody,
    success: { status: 200, description: 'The folder as renamed', schema: Folder },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params, body }) => ({
      status: 200,
      body: await service.renameFolder(principal, params.folderId, body.name),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/folders/{folderId}',
    summary: 'Delete an empty folder',
    description: `409 CONFLICT while the folder holds tests or questions (or an import is writing into it): move or delete them first. ${WHO}`,
    tag: 'Folders',
    access: QUESTION_BANK_ROLES,
    params: FolderParams,
    success: { status: 204, description: 'Deleted' },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params }) => {
      await service.deleteFolder(principal, params.folderId);
      return { status: 204 };
    },
  }),
];
