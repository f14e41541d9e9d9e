// mcp-schema-args.mjs: the official TypeScript MCP SDK client against a
// running Recordwatch (not part of CI; issue 30 item 10). It builds
// arguments for every tool from its input schema alone (enum, pattern,
// bounds), validates them with Ajv, calls each read tool through the SDK
// client (which checks structured output against the tool's outputSchema),
// and checks that a value outside an enum or pattern is refused.
//
//   go run . -addr 127.0.0.1:8099 -data /tmp/rw &
//   cd web-tests && npm install --no-save @modelcontextprotocol/sdk ajv
//   node mcp-schema-args.mjs http://127.0.0.1:8099
//
// The Go twin that runs in CI is TestArgumentsBuiltFromSchemas
// (api/mcp/schema_args_test.go).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import Ajv from "ajv";

const examples = {
  "^[0-9]{4}-[0-9]{2}-[0-9]{2}$": "2026-08-01",
  "^\\d{4}-\\d{2}-\\d{2}$": "2026-06-12",
  "^[0-9A-Za-z_-]{1,40}$": "20140930007",
  "^P?[0-9]{4}[MXKQRY][0-9]{4}$": "2022M0258",
  "^[A-Z]{2}$": "ZM",
  "^[1-5][0-9]{9}$": "1000010010",
  "^(MN|BX|BK|QN|SI|M|X|K|Q|R)\\s*0*([0-9]{1,2})$": "M11",
  "^[A-Z]?\\s*([0-9]{6}[A-Z]?)\\s*([A-Z]{3})\\s*(\\(A\\))?$": "C 240046 HAM",
  "^(cb-calendar|cb-minutes|cityrecord-hearings|legistar):.+$": "legistar:22525",
};
const text = { q: "parks", name: "Parks", id: "CT100220268808241", request: "parks awards", email: "someone@example.org" };
function value(p) {
  if (p.items) { const v = value(p.items); return v === undefined ? undefined : [v]; }
  if (p.enum) return p.enum[0];
  if (p.pattern) { if (!(p.pattern in examples)) throw new Error("no example for " + p.pattern); return examples[p.pattern]; }
  if (p.minimum !== undefined && p.maximum !== undefined) return p.minimum;
  return undefined;
}
function outside(p) {
  if (p.items) { const v = outside(p.items); return v === undefined ? undefined : [v]; }
  if (p.enum) return "not-one-of-the-enum";
  if (p.pattern) return "/not/this/shape";
  return undefined;
}
const ajv = new Ajv({ strict: false });
let built = 0, called = 0, refused = 0, failures = 0;
for (const form of [1]) {
  const client = new Client({ name: "ts-schema-check", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(process.argv[2] + "/mcp")));
  const { tools } = await client.listTools();
  for (const t of tools) {
    const validate = ajv.compile(t.inputSchema);
    const props = t.inputSchema.properties || {};
    const base = {};
    for (const r of t.inputSchema.required || []) base[r] = value(props[r]) ?? text[r];
    for (const [name, p] of Object.entries(props).sort()) {
      const v = value(p);
      if (v === undefined) continue;
      const args = { ...base, [name]: v };
      built++;
      if (!validate(args)) { failures++; console.log("INVALID", t.name, JSON.stringify(args), ajv.errorsText(validate.errors)); }
      if (t.annotations?.readOnlyHint) {
        try {
          const res = await client.callTool({ name: t.name, arguments: args });
          called++;
          const msg = (res.content || []).map(c => c.text || "").join(" ");
          if (res.isError && /validating/.test(msg)) { failures++; console.log("REFUSED", t.name, JSON.stringify(args), msg); }
        } catch (e) { failures++; console.log("ERROR", t.name, JSON.stringify(args), e.message); }
      }
      const bad = outside(p);
      if (bad === undefined) continue;
      const badArgs = { ...args, [name]: bad };
      if (validate(badArgs)) { failures++; console.log("ACCEPTED BY SCHEMA", t.name, name); }
      try {
        const res = await client.callTool({ name: t.name, arguments: badArgs });
        if (!res.isError) { failures++; console.log("NOT REFUSED", t.name, name); } else refused++;
      } catch (e) { refused++; }
    }
  }
  await client.close();
}
console.log(`built ${built} argument sets, ${called} read calls, ${refused} out-of-schema values refused, ${failures} failures`);
process.exit(failures ? 1 : 0);
