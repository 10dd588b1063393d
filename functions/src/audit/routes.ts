import { auditScope } from '../auth';
import { defineRoute } from '../http';
import { splitPageQuery } from '../shared';
import { AuditLogPage, ListAuditLogsQuery } from './schemas';
import { withNames } from './names';
import { listAuditRecords } from './store';

export const auditRoutes = [
  defineRoute({
    method: 'get',
    path: '/audit-logs',
    summary: 'Read the audit log',
    description:
      'Newest first. A Super Admin sees every record (client_id optional); a Client Admin sees its own organization’s. ' +
      'Refused tokens belong to no organization, so only a Super Admin sees them. Each record carries the names of ' +
      'the user and the actor (user_name, user_email, actor_name, actor_email) and of the test its details name ' +
      '(test_name), read for the page in batches: null when unknown.',
    tag: 'Audit',
    access: ['super_admin', 'client_admin'],
    query: ListAuditLogsQuery,
    success: { status: 200, description: 'A page of audit records', schema: AuditLogPage },
    handler: async ({ principal, query }) => {
      const { page, filters } = splitPageQuery(query);
      const client_id = auditScope(principal, filters.client_id);
      const { data, pagination } = await listAuditRecords({ ...filters, client_id }, page);
      return { status: 200, body: { data: await withNames(data), pagination } };
    },
  }),
];
