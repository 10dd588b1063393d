import { useCallback, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { Navigate, NavLink, Route, Routes } from 'react-router';
import { authorizedFetch } from '../api';
import { MediaLoaderContext, type MediaLoader } from '../QuestionText';
import { useSession } from '../session';
import { AnalyticsPage } from './analytics/AnalyticsPage';
import { StudentPage } from './analytics/StudentPage';
import { AuditPage } from './audit/AuditPage';
import { ClassesPage } from './classes/ClassesPage';
import { ClassPage } from './classes/ClassPage';
import { GradingPage } from './grading/GradingPage';
import { IntegrationsPage } from './integrations/IntegrationsPage';
import { LivePage } from './live/LivePage';
import { OrgPicker, OrgProvider } from './org';
import { OrganizationsPage } from './organizations/OrganizationsPage';
import { ImportPage } from './questions/ImportPage';
import { QuestionsPage } from './questions/QuestionsPage';
import { TestPage } from './tests/TestPage';
import { TestsPage } from './tests/TestsPage';
import { UsersPage } from './users/UsersPage';

/** The admin pages: one chunk, loaded only when an administrator opens them. */
export default function AdminApp() {
  const { auth, me } = useSession();
  // Question texts on admin pages fetch their images and audio with the admin's own token.
  const loadMedia = useCallback<MediaLoader>(
    async (mediaId) => (await authorizedFetch(auth, `/api/media/${encodeURIComponent(mediaId)}`)).blob(),
    [auth],
  );
  // On a narrow screen the side bar is a menu behind one button (styles.css shows it all on a wide one).
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  const closeOnLink = (e: MouseEvent) => {
    if ((e.target as Element).closest('a')) setMenuOpen(false);
  };
  const closeOnEscape = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || !menuOpen) return;
    setMenuOpen(false);
    menuButton.current?.focus();
  };
  return (
    <MediaLoaderContext value={loadMedia}>
      <OrgProvider>
        <div className="admin">
          <nav
            aria-label="Administration"
            className={menuOpen ? 'side open' : 'side'}
            onClick={closeOnLink}
            onKeyDown={closeOnEscape}
          >
            <button
              type="button"
              ref={menuButton}
              className="menu-toggle secondary"
              aria-expanded={menuOpen}
              onClick={() => setMenuOpen(!menuOpen)}
            >
              Menu
            </button>
            <OrgPicker />
            <NavLink to="/admin/tests">Tests</NavLink>
            <NavLink to="/admin/questions">Question bank</NavLink>
            <NavLink to="/admin/import">Import questions</NavLink>
            <NavLink to="/admin/users">Users</NavLink>
            <NavLink to="/admin/classes">Classes</NavLink>
            <NavLink to="/admin/integrations">Integrations</NavLink>
            <NavLink to="/admin/audit">Audit log</NavLink>
            {me?.role === 'super_admin' && <NavLink to="/admin/organizations">Organizations</NavLink>}
          </nav>
          <main>
            <Routes>
              {/* A Super Admin works across organizations: its landing page lists them (the tests need one chosen). */}
              <Route
                index
                element={<Navigate to={me?.role === 'super_admin' ? '/admin/organizations' : '/admin/tests'} replace />}
              />
              <Route path="tests" element={<TestsPage />} />
              <Route path="tests/:testId" element={<TestPage />} />
              <Route path="tests/:testId/live" element={<LivePage />} />
              <Route path="tests/:testId/analytics" element={<AnalyticsPage />} />
              <Route path="tests/:testId/grading" element={<GradingPage />} />
              <Route path="students/:studentId" element={<StudentPage />} />
              <Route path="questions" element={<QuestionsPage />} />
              <Route path="import" element={<ImportPage />} />
              <Route path="users" element={<UsersPage />} />
              <Route path="classes" element={<ClassesPage />} />
              <Route path="classes/:classId" element={<ClassPage />} />
              <Route path="integrations" element={<IntegrationsPage />} />
              <Route path="audit" element={<AuditPage />} />
              <Route path="organizations" element={<OrganizationsPage />} />
            </Routes>
          </main>
        </div>
      </OrgProvider>
    </MediaLoaderContext>
  );
}
