// The request line the CLI formats by hand must be the very text pino writes for
// `logger.info(line, "request")`, for any value, hostile ones included: the same bytes from a
// real pino logger, compared whole.
import { Writable } from "node:stream";
import type { RequestLogLine } from "@tminus/observability";
import fc from "fast-check";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { formatRequestLine, jsonString, requestLines } from "../src/request-lines";

const TIME = 1795740887207;
const PID = 4242;

/** What pino itself writes for the line, with the CLI's options (base: pid) and a fixed time. */
function pinoLine(line: RequestLogLine): string {
  let out = "";
  const sink = new Writable({
    write(chunk, _encoding, done) {
      out += chunk;
      done();
    },
  });
  const logger = pino(
    { level: "info", base: { pid: PID }, timestamp: () => `,"time":${TIME}` },
    // pino writes to a plain stream synchronously through `write`.
    { write: (text: string) => sink.write(text) },
  );
  logger.info(line, "request");
  return out;
}

const ours = (line: RequestLogLine) =>
  formatRequestLine(line, TIME, '{"level":30,"time":', `,"pid":${PID}`);

const LINE: RequestLogLine = {
  request_id: "01a21a7f-68a6-761e-bb25-51d756006d21",
  method: "GET",
  route: "/api/v1/timers/{timer_id}/status",
  status: 200,
  duration_ms: 0.297,
  account_id: "0b6c3c1e-68a6-761e-bb25-51d756006d21",
  environment: "production",
};

const HOSTILE = [
  'a"b',
  "back\\slash",
  "new\nline\r\t",
  "\u0000\u0001\u001f\u007f",
  "\u2028\u2029",
  "é漢字🎉",
  '","msg":"forged',
  "",
];

describe("request lines", () => {
  it("are pino's own line, byte for byte", () => {
    expect(ours(LINE)).toBe(pinoLine(LINE));
    const anonymous = { ...LINE, account_id: undefined, environment: undefined };
    delete anonymous.account_id;
    delete anonymous.environment;
    expect(ours(anonymous)).toBe(pinoLine(anonymous));
    expect(ours({ ...LINE, duration_ms: 12, status: 404 })).toBe(
      pinoLine({ ...LINE, duration_ms: 12, status: 404 }),
    );
    expect(ours({ ...LINE, duration_ms: Number.NaN })).toBe(
      pinoLine({ ...LINE, duration_ms: Number.NaN }),
    );
  });

  it("escape hostile strings as pino does, and stay one JSON line", () => {
    for (const value of HOSTILE) {
      const line = { ...LINE, method: value, route: value, environment: value };
      const text = ours(line);
      expect(text).toBe(pinoLine(line));
      expect(text.indexOf("\n")).toBe(text.length - 1);
      expect(JSON.parse(text)).toMatchObject({ method: value, route: value, msg: "request" });
    }
  });

  it("escape a lone surrogate (pino writes it raw, and stdout makes it U+FFFD)", () => {
    const line = { ...LINE, method: "\ud800 lone \udfff" };
    const text = ours(line);
    expect(text).toContain('"method":"\\ud800 lone \\udfff"');
    expect(Buffer.from(text).toString()).toBe(text);
    expect(JSON.parse(text).method).toBe(line.method);
  });

  it("escape any string as JSON.stringify does", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (value) => {
        expect(jsonString(value)).toBe(JSON.stringify(value));
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.string(), (method, route) => {
        const line = { ...LINE, method, route };
        expect(ours(line)).toBe(pinoLine(line));
      }),
      { numRuns: 200 },
    );
  });

  it("are handed on one by one, each as pino would write it at the time of the call", () => {
    const written: string[] = [];
    const add = requestLines((text) => written.push(text), {
      head: '{"level":30,"time":',
      bindings: `,"pid":${PID}`,
    });
    const before = Date.now();
    add(LINE);
    add({ ...LINE, status: 404 });
    expect(written).toHaveLength(2);
    const [first, second] = written.map((text) => JSON.parse(text));
    expect(first).toMatchObject({ ...LINE, level: 30, pid: PID, msg: "request" });
    expect(second.status).toBe(404);
    expect(first.time).toBeGreaterThanOrEqual(before);
    expect(first.time).toBeLessThanOrEqual(Date.now());
  });
});
