import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { POSTGRES_MIGRATIONS } from "../src/postgres/migrations";
import { MIGRATIONS } from "../src/sqlite/migrations";

// A database records the versions it applied, never their text: a released migration edited
// in place would leave existing databases with another schema than new ones. Both histories are
// assembled from shared steps (src/shared/migration-steps.ts), so this pins every step's SQL to
// the SHA-256 of the text it shipped with. Append a new migration and its line; never edit one.

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const SQLITE: [number, string, string][] = [
  [1, "initial schema", "c3a58d17c362ccbb4698f0a7cfc26fd478c361e040fbed649ba0096029bf907d"],
  [2, "timer activity", "09d2c28ce6d2f49260d5743fc4095ccb7fa0ee85d411cfd7f94f43fb233e85b0"],
  [3, "webhooks", "8b71d360777c86cd946cd959d89b4112be65df9b7fc0994cc4697e7464812aa6"],
  [4, "timer viewers", "258ad15ea0ea3f2f74839852f35c4e1d7488487fc357d7d063461f4caf70be5e"],
  [5, "key rolling", "e89b76f6bf9efdced647e9ab4c880e825f8559a14a9bf2e6dc5ceb8e86157f11"],
  [6, "webhook retention", "ac8363f352345f210824b23f5fb530c25c893eb35eb9a7026c5b772cca3cbdca"],
  [7, "cache generations", "884b977a09511b4c89540ba347ce57f0b04743da8c36e85683a4d1758ed98588"],
  [8, "dashboard users", "f553875be3ec98e41a8baa6947a41a384133222c9e2d3935f34c46c8f56eb995"],
  [
    9,
    "render analytics and viewer events",
    "ba1dbe2acf006c152abab6597961c5d27ec924a676c777900f60536f52c533df",
  ],
  [
    10,
    "request log without its request-id index",
    "c28b0e35431f0b482acff29376dd8eef07bbe4ebe7a0ed8ea627cda21624455d",
  ],
  [11, "saved looks", "47261f29c037e1d878acf1c7597a542de761f5827dcaae512d66deeedf5f0b22"],
  [
    12,
    "render analytics by request source",
    "e1b8cf9926ced6d90fb964e184ddb97d58b5e66956df9d262061e2e22c3e9d3e",
  ],
  [
    13,
    "uploaded fonts and images",
    "325540eecaf3558b609b37a06ca5477c9e491c9143a35ddf9cf5c0c438956e9d",
  ],
  [14, "clicks and campaigns", "1ee05c3e535bfa9c5c33131438705cf0e57cb054ffb67c441bdfa54696b04291"],
];

const POSTGRES: [number, string, string][] = [
  [1, "initial schema", "4221905e2202bb573eb8b2d1f368bf535709382255e96de8e00a208829ce82c2"],
  [2, "key rolling", "4ae8b41ddb0204237b3dd2465d142d44443c9d69c83448fa25a61b3308296acd"],
  [3, "webhook retention", "ac8363f352345f210824b23f5fb530c25c893eb35eb9a7026c5b772cca3cbdca"],
  [4, "cache generations", "a093c28f93365586f4a511c70cdee925c3ccfe6ed7110c92639d27feb1b236fc"],
  [5, "dashboard users", "c3df051abbef16bb8b847c472215884a0c0041be2c4e4d194bcf72b7ef39d8d4"],
  [
    6,
    "render analytics and viewer events",
    "bd10a53c0e87db5f1badb2839a28662d360c50e06fb4c8d3764ed7c10a0c53e4",
  ],
  [
    7,
    "request log without its request-id index",
    "c28b0e35431f0b482acff29376dd8eef07bbe4ebe7a0ed8ea627cda21624455d",
  ],
  [8, "saved looks", "3f96df894d651c51da5b8af4a3ab71a5725082b829045c0ec3581725856a0516"],
  [
    9,
    "render analytics by request source",
    "d63113f969d0e7e2a418ae100a3307545055d3d4884ae8f381eebf268d9f4bd0",
  ],
  [
    10,
    "uploaded fonts and images",
    "5a7120482f8faa82096f066de7a72428745f360105e94e266a532a7772d9f680",
  ],
  [11, "clicks and campaigns", "97a848308120373def819bbbadf3e45a28a4ae1b18647935f3acf0ebd4338c44"],
];

describe("released migrations", () => {
  it("SQLite: every version, name and SQL text is the one released", () => {
    expect(MIGRATIONS.map((m) => [m.version, m.name, sha256(m.sql)])).toEqual(SQLITE);
  });

  it("PostgreSQL: every version, name and SQL text is the one released", () => {
    expect(POSTGRES_MIGRATIONS.map((m) => [m.version, m.name, sha256(m.sql)])).toEqual(POSTGRES);
  });
});
