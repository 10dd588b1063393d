import { CLASS_MANAGERS } from '../auth';
import { defineRoute, type RouteDefinition } from '../http';
import { splitPageQuery } from '../shared';
import {
  MAX_CLASSES_PER_CLIENT,
  MAX_CLASSES_PER_STUDENT,
  MAX_CLASSES_PER_TEST,
  MAX_MEMBERS_PER_CLASS,
} from './documents';
import {
  Class,
  ClassMember,
  ClassMemberPage,
  ClassMemberParams,
  ClassPage,
  ClassParams,
  CreateClassBody,
  ListClassesQuery,
  ListClassMembersQuery,
  UpdateClassBody,
} from './schemas';
import { InvitationBatch, IssueClassInvitationsBody, MAX_INVITATIONS_PER_CALL } from '../invitations';
import * as service from './service';

const WHO =
  'The organization’s Client Admin and Super Admins only: Students and Guests get 403. A class of another organization answers 403, an unknown one 404.';

export const classRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'get',
    path: '/classes',
    summary: 'List classes of an organization',
    description: `A Super Admin names client_id (400 without it, 404 for an unknown client); a Client Admin sees its own organization, and naming another answers 403. Sorted by name, case-insensitively. ${WHO}`,
    tag: 'Classes',
    access: CLASS_MANAGERS,
    query: ListClassesQuery,
    success: { status: 200, description: 'A page of classes, by name', schema: ClassPage },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, query }) => {
      const { page, filters } = splitPageQuery(query);
      return { status: 200, body: await service.listClasses(principal, filters, page) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/classes',
    summary: 'Create a class',
    description: `Names are unique within an organization, compared case- and space-insensitively (409 CONFLICT otherwise). An organization holds at most ${MAX_CLASSES_PER_CLIENT} classes (409 CONFLICT beyond, counted in the creating transaction). Audited as class_created. ${WHO}`,
    tag: 'Classes',
    access: CLASS_MANAGERS,
    body: CreateClassBody,
    success: { status: 201, description: 'The new class', schema: Class },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, body, call }) => ({
      status: 201,
      body: await service.createClass(principal, body, call),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/classes/{classId}',
    summary: 'Read a class',
    description: WHO,
    tag: 'Classes',
    access: CLASS_MANAGERS,
    params: ClassParams,
    success: { status: 200, description: 'The class', schema: Class },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params }) => ({
      status: 200,
      body: await service.readClass(principal, params.classId),
    }),
  }),
  defineRoute({
    method: 'patch',
    path: '/classes/{classId}',
    summary: 'Rename a class or change its code',
    description: `409 CONFLICT when another class of the organization has that name. Audited as class_updated, with the name and code before and after. ${WHO}`,
    tag: 'Classes',
    access: CLASS_MANAGERS,
    params: ClassParams,
    body: UpdateClassBody,
    success: { status: 200, description: 'The class as changed', schema: Class },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params, body, call }) => ({
      status: 200,
      body: await service.updateClass(principal, params.classId, body, call),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/classes/{classId}',
    summary: 'Delete a class',
    description:
      `409 CONFLICT while a test is assigned to the class or holds a class override for it (its details name up to 20 such tests: test_id, test_name, and path assigned_class_ids or class_overrides): assign them elsewhere and remove the overrides first, so no test is left holding a class that no longer exists. ` +
      `Otherwise the class is gone at once (no member can be added from then on), and its members are removed before the reply (their member documents, and the class from each student’s classes). Audited as class_deleted. ${WHO}`,
    tag: 'Classes',
    access: CLASS_MANAGERS,
    params: ClassParams,
    success: { status: 204, description: 'Deleted' },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params, call }) => {
      await service.deleteClass(principal, params.classId, call);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/classes/{classId}/members',
    summary: 'List the members of a class',
    description: `Sorted by email. ${WHO}`,
    tag: 'Classes',
    access: CLASS_MANAGERS,
    params: ClassParams,
    query: ListClassMembersQuery,
    success: { status: 200, description: 'A page of members, by email', schema: ClassMemberPage },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, query }) => {
      const { page } = splitPageQuery(query);
      return { status: 200, body: await service.listMembers(principal, params.classId, page) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/classes/{classId}/invitations',
    summary: 'Invitation links for a class’s students who cannot sign in yet',
    description:
      `A new link for each member (by default only those who cannot sign in yet: no password, no linked provider, never signed in), revoking its previous one; ` +
      `up to ${MAX_MEMBERS_PER_CLASS} members, written ${MAX_INVITATIONS_PER_CALL} a batch. Disabled members, and those skipped by only_cannot_sign_in, are listed in skipped. ` +
      `Rows (uid, name, email, link, expires_at) make the CSV and the printable sheet. Each link is audited as invitation_issued. ${WHO}`,
    tag: 'Classes',
    access: CLASS_MANAGERS,
    sensitive: true,
    params: ClassParams,
    body: IssueClassInvitationsBody,
    success: { status: 200, description: 'The links, by email, and who got none', schema: InvitationBatch },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params, body, call, baseUrl }) => ({
      status: 200,
      body: await service.inviteMembers(principal, params.classId, body, call, baseUrl ?? ''),
    }),
  }),
  defineRoute({
    method: 'put',
    path: '/classes/{classId}/members/{uid}',
    summary: 'Add a student to a class',
    description:
      `Idempotent: a student already in the class answers 200 as it stands, and nothing is written. Only a student of the class’s organization joins: another organization’s user is 403; a uid that is no user, or a user who is not a student, is 400. ` +
      `A class holds at most ${MAX_MEMBERS_PER_CLASS} students, and a student belongs to at most ${MAX_CLASSES_PER_STUDENT} classes (409 CONFLICT beyond either, counted in the transaction that adds the member). ` +
      `A student’s classes decide which tests it sees (a test assigned to classes, at most ${MAX_CLASSES_PER_TEST}). Audited as class_member_added. ${WHO}`,
    tag: 'Classes',
    access: CLASS_MANAGERS,
    params: ClassMemberParams,
    success: { status: 200, description: 'The member', schema: ClassMember },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params, call }) => ({
      status: 200,
      body: await service.addMember(principal, params.classId, params.uid, call),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/classes/{classId}/members/{uid}',
    summary: 'Remove a student from a class',
    description: `404 when the uid is not a member of the class. The student keeps its attempts (running or submitted). Audited as class_member_removed. ${WHO}`,
    tag: 'Classes',
    access: CLASS_MANAGERS,
    params: ClassMemberParams,
    success: { status: 204, description: 'Removed' },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, call }) => {
      await service.removeMember(principal, params.classId, params.uid, call);
      return { status: 204 };
    },
  }),
];
