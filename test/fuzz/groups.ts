// Every group of fuzz seeds, one per part of the API: the fuzz shards take their share of them,
// and the coverage test checks that together they seed every operation of the OpenAPI document.
import { seeds as core } from './seeds/core';
import { seeds as foldersAndQuestions } from './seeds/foldersAndQuestions';
import { seeds as testsAndShareCodes } from './seeds/testsAndShareCodes';
import { seeds as attempts } from './seeds/attempts';
import { seeds as analytics } from './seeds/analytics';
import { seeds as sittings } from './seeds/sittings';
import { seeds as classOverrides } from './seeds/classOverrides';
import { seeds as networks } from './seeds/networks';
import { seeds as grading } from './seeds/grading';
import { seeds as media } from './seeds/media';
import { seeds as classes } from './seeds/classes';
import { seeds as roster } from './seeds/roster';
import { seeds as users } from './seeds/users';
import { seeds as lti } from './seeds/lti';
import { seeds as webhooks } from './seeds/webhooks';
import { seeds as integrity } from './seeds/integrity';
import { seeds as attachments } from './seeds/attachments';
import { seeds as domains } from './seeds/domains';
import type { FuzzSeedGroup } from './seeds/types';

export const ALL_GROUPS: FuzzSeedGroup[] = [
  core,
  foldersAndQuestions,
  testsAndShareCodes,
  attempts,
  analytics,
  sittings,
  classOverrides,
  networks,
  grading,
  media,
  classes,
  roster,
  users,
  lti,
  webhooks,
  integrity,
  attachments,
  domains,
];

/**
 * The shards, each a test file of its own that mocha runs beside the others: the fuzz test was the
 * suite's longest file by far (14 minutes alone), its requests waiting on the emulator one at a time.
 * Balanced by operations, about 40 each.
 */
export const SHARDS = {
  organizationsAndTests: [core, testsAndShareCodes, networks, media, integrity, domains],
  questionsAndSittings: [foldersAndQuestions, attempts, analytics, sittings, classOverrides, grading],
  peopleAndIntegrations: [classes, roster, users, lti, webhooks, attachments],
} satisfies Record<string, FuzzSeedGroup[]>;
