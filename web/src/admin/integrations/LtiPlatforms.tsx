import { useEffect, useRef, useState } from 'react';
import { useSession } from '../../session';
import { Field, formatTime, Loading, ScrollTable, useAction, useLoad } from '../../ui';
import { CopyValue } from '../shared';
import { fieldProblems, FieldProblems, FormError } from './formParts';
import {
  deleteLtiPlatform,
  listLtiPlatforms,
  registerLtiPlatform,
  updateLtiPlatform,
  type LtiPlatform,
  type LtiToolUrls,
} from './integrationsApi';

/** The service keeps at most this many platforms per organization (a 409 past it). */
const MAX_PLATFORMS = 20;

/**
 * The tool's URLs as this web app reaches the API (the same origin, /api), shown until the API
 * gives them with a platform: the platform needs them before it can give the client id and
 * deployment id the registration asks for. A deep-linking request arrives at the launch URL.
 */
const toolUrlsHere = (): LtiToolUrls => ({
  login_url: `${location.origin}/api/lti/login`,
  launch_url: `${location.origin}/api/lti/launch`,
  jwks_url: `${location.origin}/api/lti/jwks`,
  deep_linking_url: `${location.origin}/api/lti/launch`,
});

/** LTI 1.3 platforms (Moodle, Canvas, …) of the organization: the tool's URLs, registered platforms. */
export function LtiPlatforms({ clientId }: { clientId: string }) {
  const { api } = useSession();
  const platforms = useLoad(() => listLtiPlatforms(api, clientId), [api, clientId]);
  const [registered, setRegistered] = useState<LtiPlatform | null>(null);
  const [editing, setEditing] = useState<LtiPlatform | null>(null);
  const rows = platforms.data ?? [];
  return (
    <section aria-labelledby="lti-heading">
      <h2 id="lti-heading">LTI 1.3 platforms</h2>
      <p className="note">
        A platform (Moodle, Canvas, Brightspace, Blackboard) launches the organization&rsquo;s tests from its courses
        and receives their scores. Register this tool in the platform first with the tool&rsquo;s URLs, then register
        the platform here with the issuer, client id and deployment id it gives.
      </p>
      <ToolUrls
        tool={registered?.tool ?? rows[0]?.tool ?? toolUrlsHere()}
        heading={registered ? `Tool URLs for ${registered.name || registered.issuer}` : 'Tool URLs'}
        justRegistered={registered !== null}
      />
      <PlatformChecklist />
      <RegisterPlatform
        clientId={clientId}
        full={rows.length >= MAX_PLATFORMS}
        onRegistered={(platform) => {
          setRegistered(platform);
          platforms.reload();
        }}
      />
      <FormError error={platforms.error} fields={[]} />
      {!platforms.data && platforms.loading ? (
        <Loading what="Loading the LTI platforms" />
      ) : !platforms.data ? null : (
        <ScrollTable label="Registered LTI platforms">
          <caption className="sr-only">Registered LTI platforms</caption>
          <thead>
            <tr>
              <th scope="col">Platform</th>
              <th scope="col">Client id</th>
              <th scope="col">Deployments</th>
              <th scope="col">Instructors</th>
              <th scope="col">Registered</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={6}>No platform registered yet.</td>
              </tr>
            )}
            {rows.map((p) => (
              <PlatformRow
                key={p.id}
                clientId={clientId}
                platform={p}
                onEdit={() => setEditing(p)}
                onDeleted={() => {
                  if (registered?.id === p.id) setRegistered(null);
                  if (editing?.id === p.id) setEditing(null);
                  platforms.reload();
                }}
              />
            ))}
          </tbody>
        </ScrollTable>
      )}
      {editing && (
        <EditPlatform
          key={editing.id}
          clientId={clientId}
          platform={editing}
          onDone={(saved) => {
            setEditing(null);
            if (saved) platforms.reload();
          }}
        />
      )}
    </section>
  );
}

const TOOL_ROWS: Array<{ key: keyof LtiToolUrls; label: string; where: string }> = [
  {
    key: 'login_url',
    label: 'Login URL',
    where: 'Moodle: Initiate login URL. Canvas: OpenID Connect Initiation Url.',
  },
  {
    key: 'launch_url',
    label: 'Launch URL',
    where: 'Moodle: Tool URL and Redirection URI(s). Canvas: Target Link URI and Redirect URIs.',
  },
  {
    key: 'deep_linking_url',
    label: 'Deep linking URL',
    where:
      'Moodle: Content Selection URL (with “Supports Deep Linking” on). Canvas: the Target Link URI of the link selection placement, and a Redirect URI.',
  },
  {
    key: 'jwks_url',
    label: 'Public keyset (JWKS) URL',
    where: 'Moodle: Public keyset URL (public key type “Keyset URL”). Canvas: Public JWK URL.',
  },
];

function ToolUrls({ tool, heading, justRegistered }: { tool: LtiToolUrls; heading: string; justRegistered: boolean }) {
  return (
    <section className="card" aria-labelledby="tool-urls-heading" data-testid="tool-urls">
      <h3 id="tool-urls-heading">{heading}</h3>
      {justRegistered && (
        <p role="status">The platform is registered. Paste these into its registration of the tool, if not done yet.</p>
      )}
      <dl>
        {TOOL_ROWS.map((row) => (
          <div key={row.key}>
            <dt>{row.label}</dt>
            <dd>
              <CopyValue value={tool[row.key]} label={`the ${row.label}`} testId={`tool-${row.key}`} />
              <br />
              <small>{row.where}</small>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/**
 * What a platform must also have turned on for the tool to do its whole job, each with where Moodle and
 * Canvas keep it: without them a launch still works, but scores, rosters, test picking or names do not.
 */
const CHECKLIST: Array<{ what: string; why: string; moodle: string; canvas: string }> = [
  {
    what: 'Grade passback (Assignment and Grade Services, AGS)',
    why: 'each submitted attempt’s score is sent to the course’s gradebook, and again after a regrade',
    moodle:
      'Services: IMS LTI Assignment and Grade Services: “Use this service for grade sync and column management”; Privacy: Accept grades from the tool.',
    canvas:
      'LTI Advantage Services: “Can create and view assignment data in the gradebook associated with the tool” and “Can create and update submission results for assignments associated with the tool”.',
  },
  {
    what: 'Rosters (Names and Role Provisioning Services, NRPS)',
    why: 'a course’s students are brought into its class before they launch',
    moodle:
      'Services: IMS LTI Names and Role Provisioning: “Use this service to retrieve members’ information as per privacy settings”.',
    canvas: 'LTI Advantage Services: “Can retrieve user data associated with the context the tool is installed in”.',
  },
  {
    what: 'Deep linking',
    why: 'a teacher picks which test an activity opens, from the course',
    moodle: 'Tool settings: Supports Deep Linking (Content-Item Message), with the Content Selection URL above.',
    canvas:
      'Placements: Link Selection and Assignment Selection, message type LtiDeepLinkingRequest, with the deep linking URL above.',
  },
  {
    what: 'Names and emails shared',
    why: 'students appear by name in the live view, grading and results, and find their account by email',
    moodle: 'Privacy: Share launcher’s name with tool and Share launcher’s email with tool: Always.',
    canvas: 'Additional Settings: Privacy Level: Public.',
  },
];

function PlatformChecklist() {
  return (
    <section className="card" aria-labelledby="lti-checklist-heading">
      <h3 id="lti-checklist-heading">Also turn on in the platform</h3>
      <ol>
        {CHECKLIST.map((item) => (
          <li key={item.what}>
            <strong>{item.what}</strong>: {item.why}.
            <br />
            <small>Moodle: {item.moodle}</small>
            <br />
            <small>Canvas: {item.canvas}</small>
          </li>
        ))}
      </ol>
    </section>
  );
}

const PLATFORM_FIELDS = [
  'name',
  'issuer',
  'client_id',
  'deployment_ids',
  'auth_login_url',
  'auth_token_url',
  'jwks_url',
  'instructors_as_admins',
] as const;
type PlatformField = (typeof PLATFORM_FIELDS)[number];
type PlatformForm = Record<Exclude<PlatformField, 'instructors_as_admins'>, string>;

const EMPTY: PlatformForm = {
  name: '',
  issuer: '',
  client_id: '',
  deployment_ids: '',
  auth_login_url: '',
  auth_token_url: '',
  jwks_url: '',
};

const TEXT_FIELDS: Array<{ key: keyof PlatformForm; label: string; hint: string; type?: 'url' }> = [
  { key: 'name', label: 'Platform name', hint: 'Optional, e.g. Moodle of the school' },
  { key: 'issuer', label: 'Issuer', hint: 'Moodle: Platform ID. Canvas: https://canvas.instructure.com', type: 'url' },
  { key: 'client_id', label: 'Client ID', hint: 'Given by the platform when the tool is registered there' },
  {
    key: 'deployment_ids',
    label: 'Deployment IDs',
    hint: 'One per line (up to 20): Moodle shows it with the tool; Canvas once the key is deployed',
  },
  {
    key: 'auth_login_url',
    label: 'Authentication request URL',
    hint: 'Moodle: Authentication request URL. Canvas: https://sso.canvaslms.com/api/lti/authorize_redirect',
    type: 'url',
  },
  {
    key: 'auth_token_url',
    label: 'Access token URL',
    hint: 'Moodle: Access token URL. Canvas: https://sso.canvaslms.com/login/oauth2/token',
    type: 'url',
  },
  {
    key: 'jwks_url',
    label: 'Platform keyset (JWKS) URL',
    hint: 'Moodle: Public keyset URL. Canvas: https://sso.canvaslms.com/api/lti/security/jwks',
    type: 'url',
  },
];

/** The registration's text fields, each with its hint and the API's refusal under it: the register form's and the edit's. */
function PlatformFields({
  fields,
  form,
  error,
  onChange,
}: {
  fields: typeof TEXT_FIELDS;
  form: PlatformForm;
  error: unknown;
  onChange: (key: keyof PlatformForm, value: string) => void;
}) {
  return (
    <div className="columns">
      {fields.map((f) => (
        <Field key={f.key} label={f.label} hint={f.hint}>
          {f.key === 'deployment_ids' ? (
            <textarea
              rows={2}
              required
              value={form[f.key]}
              aria-invalid={fieldProblems(error, f.key).length > 0 || undefined}
              onChange={(e) => onChange(f.key, e.target.value)}
            />
          ) : (
            <input
              type={f.type ?? 'text'}
              required={f.key !== 'name'}
              maxLength={f.key === 'name' ? 100 : undefined}
              value={form[f.key]}
              aria-invalid={fieldProblems(error, f.key).length > 0 || undefined}
              onChange={(e) => onChange(f.key, e.target.value)}
            />
          )}
          <FieldProblems error={error} field={f.key} />
        </Field>
      ))}
    </div>
  );
}

const deploymentIds = (text: string) =>
  text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);

function RegisterPlatform({
  clientId,
  full,
  onRegistered,
}: {
  clientId: string;
  full: boolean;
  onRegistered: (platform: LtiPlatform) => void;
}) {
  const { api } = useSession();
  const register = useAction();
  const [form, setForm] = useState<PlatformForm>(EMPTY);
  const [instructorsAsAdmins, setInstructorsAsAdmins] = useState(false);
  const set = (key: keyof PlatformForm, value: string) => setForm((f) => ({ ...f, [key]: value }));
  const submit = () =>
    register.run(async () => {
      const made = await registerLtiPlatform(api, clientId, {
        issuer: form.issuer.trim(),
        client_id: form.client_id.trim(),
        deployment_ids: deploymentIds(form.deployment_ids),
        auth_login_url: form.auth_login_url.trim(),
        auth_token_url: form.auth_token_url.trim(),
        jwks_url: form.jwks_url.trim(),
        ...(form.name.trim() ? { name: form.name.trim() } : {}),
        instructors_as_admins: instructorsAsAdmins,
      });
      setForm(EMPTY);
      setInstructorsAsAdmins(false);
      onRegistered(made);
    });
  const missing = TEXT_FIELDS.some((f) => f.key !== 'name' && !form[f.key].trim());
  return (
    <form
      className="card long-hints"
      aria-label="Register a platform"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h3>Register a platform</h3>
      <PlatformFields fields={TEXT_FIELDS} form={form} error={register.error} onChange={set} />
      <label className="option">
        <input
          type="checkbox"
          checked={instructorsAsAdmins}
          onChange={(e) => setInstructorsAsAdmins(e.target.checked)}
        />{' '}
        Instructors become admins (an Instructor&rsquo;s launch opens the admin pages as a Client Admin; otherwise it
        takes tests as a student. A Learner never becomes an admin.)
      </label>
      {full && (
        <p className="warning">
          The organization has {MAX_PLATFORMS} platforms, the most it may have: delete one before registering another.
        </p>
      )}
      <button type="submit" disabled={register.busy || missing || full}>
        Register platform
      </button>
      <FormError error={register.error} fields={[...PLATFORM_FIELDS]} />
    </form>
  );
}

function PlatformRow({
  clientId,
  platform,
  onEdit,
  onDeleted,
}: {
  clientId: string;
  platform: LtiPlatform;
  onEdit: () => void;
  onDeleted: () => void;
}) {
  const { api } = useSession();
  const action = useAction();
  const label = platform.name || platform.issuer;
  const remove = () => {
    if (!window.confirm(`Delete the platform ${label}? Its launches are refused from then on.`)) return;
    void action.run(async () => {
      await deleteLtiPlatform(api, clientId, platform.id);
      onDeleted();
    });
  };
  return (
    <tr data-testid="lti-platform">
      <td>
        {platform.name && (
          <>
            {platform.name}
            <br />
          </>
        )}
        <code>{platform.issuer}</code>
        <br />
        <small>Its login URL: </small>
        <CopyValue value={platform.tool.login_url} label={`the login URL of ${label}`} testId="platform-login-url" />
        <FormError error={action.error} fields={[]} />
      </td>
      <td>
        <code>{platform.client_id}</code>
      </td>
      <td>
        {platform.deployment_ids.map((id) => (
          <div key={id}>
            <code>{id}</code>
          </div>
        ))}
      </td>
      <td>{platform.instructors_as_admins ? 'Become admins' : 'Take tests as students'}</td>
      <td>{formatTime(platform.created_at)}</td>
      <td>
        <span className="inline-actions">
          <button type="button" className="secondary" onClick={onEdit}>
            Edit<span className="sr-only"> the platform {label}</span>
          </button>
          <button type="button" className="danger" disabled={action.busy} onClick={remove}>
            Delete<span className="sr-only"> the platform {label}</span>
          </button>
        </span>
      </td>
    </tr>
  );
}

/** The fields an edit may change: the issuer and client id name the registration (another pair is another registration). */
const EDITABLE_FIELDS = TEXT_FIELDS.filter((f) => f.key !== 'issuer' && f.key !== 'client_id');

const formOf = (p: LtiPlatform): PlatformForm => ({
  name: p.name,
  issuer: p.issuer,
  client_id: p.client_id,
  deployment_ids: p.deployment_ids.join('\n'),
  auth_login_url: p.auth_login_url,
  auth_token_url: p.auth_token_url,
  jwks_url: p.jwks_url,
});

/** A registration's settings, sent as the fields that changed (PATCH): the issuer and client id are shown, not edited. */
function EditPlatform({
  clientId,
  platform,
  onDone,
}: {
  clientId: string;
  platform: LtiPlatform;
  onDone: (saved: boolean) => void;
}) {
  const { api } = useSession();
  const save = useAction();
  const [form, setForm] = useState<PlatformForm>(() => formOf(platform));
  const [instructorsAsAdmins, setInstructorsAsAdmins] = useState(platform.instructors_as_admins);
  const heading = useRef<HTMLHeadingElement>(null);
  // The form opens below the table: the focus goes to it, as it does to a dialog.
  useEffect(() => heading.current?.focus(), []);
  const label = platform.name || platform.issuer;
  const set = (key: keyof PlatformForm, value: string) => setForm((f) => ({ ...f, [key]: value }));
  const before = formOf(platform);
  const changes = {
    ...(form.name.trim() && form.name.trim() !== before.name ? { name: form.name.trim() } : {}),
    ...(form.deployment_ids !== before.deployment_ids ? { deployment_ids: deploymentIds(form.deployment_ids) } : {}),
    ...(form.auth_login_url.trim() !== before.auth_login_url ? { auth_login_url: form.auth_login_url.trim() } : {}),
    ...(form.auth_token_url.trim() !== before.auth_token_url ? { auth_token_url: form.auth_token_url.trim() } : {}),
    ...(form.jwks_url.trim() !== before.jwks_url ? { jwks_url: form.jwks_url.trim() } : {}),
    ...(instructorsAsAdmins !== platform.instructors_as_admins ? { instructors_as_admins: instructorsAsAdmins } : {}),
  };
  const unchanged = Object.keys(changes).length === 0;
  const submit = () =>
    save.run(async () => {
      await updateLtiPlatform(api, clientId, platform.id, changes);
      onDone(true);
    });
  return (
    <form
      className="card long-hints"
      aria-label={`Edit the platform ${label}`}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h3 ref={heading} tabIndex={-1}>
        Edit {label}
      </h3>
      <p className="note">
        Issuer <code>{platform.issuer}</code>, client id <code>{platform.client_id}</code>: these name the registration.
        A platform with another pair is registered anew.
      </p>
      <PlatformFields fields={EDITABLE_FIELDS} form={form} error={save.error} onChange={set} />
      <label className="option">
        <input
          type="checkbox"
          checked={instructorsAsAdmins}
          onChange={(e) => setInstructorsAsAdmins(e.target.checked)}
        />{' '}
        Instructors become admins
      </label>
      <p className="row">
        <button type="submit" disabled={save.busy || unchanged}>
          Save changes
        </button>
        <button type="button" className="secondary" onClick={() => onDone(false)}>
          Cancel
        </button>
      </p>
      <FormError error={save.error} fields={[...PLATFORM_FIELDS]} />
    </form>
  );
}
