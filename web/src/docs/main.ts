import { onIdTokenChanged, signInWithEmailAndPassword, signOut, type Auth } from 'firebase/auth';
import SwaggerUIBundle from 'swagger-ui-dist/swagger-ui-es-bundle.js';
import 'swagger-ui-dist/swagger-ui.css';
import './reference.css';
import { startFirebase } from '../firebase';
import { accessible } from './accessible';

/** The scheme of the document's Firebase ID token (functions' OpenAPI components). */
const BEARER = 'bearerAuth';

const element = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const form = element<HTMLFormElement>('api-signin-form');
const email = element<HTMLInputElement>('api-signin-email');
const password = element<HTMLInputElement>('api-signin-password');
const signedIn = element<HTMLParagraphElement>('api-signed-in');
const status = element<HTMLParagraphElement>('api-signin-status');

let loaded = () => {};
const specLoaded = new Promise<void>((resolve) => (loaded = resolve));
// The document the service itself serves, so this page can never describe another API.
const ui = SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#api-reference',
  deepLinking: true,
  plugins: [accessible],
  onComplete: () => loaded(),
});
// Authorizing needs the document's security schemes, so it waits for both.
void Promise.all([startFirebase({ separate: true }), specLoaded]).then(([auth]) => wire(auth), shown);

function wire(auth: Auth) {
  let authorized = false;
  form.hidden = false;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    status.textContent = 'Signing in…';
    signInWithEmailAndPassword(auth, email.value, password.value).then(
      () => (password.value = ''),
      (err) =>
        shown(
          /invalid-credential|wrong-password|user-not-found/.test(String(err.code)) ? 'Wrong email or password' : err,
        ),
    );
  });
  element('api-signout').addEventListener('click', () => void signOut(auth));
  // Each new token (sign-in, and the SDK's refresh before the hour is up) replaces the last one.
  onIdTokenChanged(auth, (user) => {
    form.hidden = !!user;
    signedIn.hidden = !user;
    element('api-signed-in-email').textContent = user?.email ?? '';
    if (!user) {
      // Swagger UI's logout fails on a scheme it never authorized.
      if (authorized) ui.authActions.logout([BEARER]);
      authorized = false;
      status.textContent = '';
      return;
    }
    void user.getIdToken().then((token) => {
      // A sign-out while the token was on its way must not bring it back into Swagger UI.
      if (auth.currentUser?.uid !== user.uid) return;
      ui.preauthorizeApiKey(BEARER, token);
      authorized = true;
      status.textContent = 'Signed in.';
    }, shown);
  });
}

function shown(err: unknown) {
  status.textContent = err instanceof Error ? err.message : String(err);
}
