// Every form that React sends (an onSubmit) is a ClientForm, whose controls wait for hydration (client-form.tsx):
// a raw <form onSubmit> sent before hydration became a GET of the page with its fields in the URL.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { formsSentByReact } from "./client-form-scan";

const root = join(import.meta.dirname, "..", "..");

const tsxFiles = (dir: string) =>
  (readdirSync(join(root, dir), { recursive: true }) as string[])
    .filter((f) => f.endsWith(".tsx"))
    .map((f) => join(root, dir, f));

describe("forms sent by React", () => {
  it("finds a raw <form> with an onSubmit, and only that", () => {
    expect(formsSentByReact(`<form className="x" onSubmit={send}>`)).toEqual([1]);
    expect(formsSentByReact(`<div>\n  <form\n    ref={f}\n    onSubmit={async (e) => {\n`)).toEqual([2]);
    expect(formsSentByReact(`<form ref={(el) => (f = el)} onSubmit={send}>`)).toEqual([1]);
    expect(formsSentByReact(`<ClientForm onSubmit={send}>`)).toEqual([]);
    expect(formsSentByReact(`<form action="/audit" method="get">`)).toEqual([]);
    expect(formsSentByReact(`<form action={serverAction}>`)).toEqual([]);
    expect(formsSentByReact(`<form method="post" onSubmit={send}>`)).toEqual([]);
  });

  it("every one in app/ and components/ is a ClientForm", () => {
    const raw = ["app", "components"]
      .flatMap(tsxFiles)
      .flatMap((file) => formsSentByReact(readFileSync(file, "utf8")).map((line) => `${relative(root, file)}:${line}`));
    expect(raw, "use ClientForm (components/forms/client-form.tsx) for a form with an onSubmit").toEqual([]);
  });
});
