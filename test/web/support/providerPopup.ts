import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';

// Firebase Auth's popup sign-in (Google, Microsoft) against the Auth emulator, in a browser with no
// network: Google's gapi loader is served by a stand-in of ours (gapiStandIn.js), and what the
// emulator's account picker fetches from the internet (styles, fonts) is refused at once rather
// than waited for. Everything else is the SDK's and the emulator's own.

const GAPI_STAND_IN = readFileSync(join(__dirname, 'gapiStandIn.js'), 'utf8');

/** Routes the profile's requests for gapi to the stand-in; only the files that sign in by popup pay for routing. */
export async function standInForGoogle(context: BrowserContext): Promise<void> {
  await context.route(/^https:\/\/apis\.google\.com\/js\/api\.js/, (route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript', body: GAPI_STAND_IN }),
  );
  await context.route(/^https:\/\/(unpkg\.com|fonts\.googleapis\.com|fonts\.gstatic\.com)\//, (route) => route.abort());
}

/**
 * Clicks `button` on `page` and, in the provider's popup the Auth emulator serves, adds an account of
 * this email and name and signs in with it; resolves once the popup has closed itself.
 */
export async function signInInPopup(page: Page, button: string, email: string, name: string): Promise<void> {
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: button }).click()]);
  await popup.locator('#add-account-button').click();
  await popup.locator('#email-input').fill(email);
  await popup.locator('#display-name-input').fill(name);
  await popup.locator('#sign-in').click();
  await popup.waitForEvent('close');
}
