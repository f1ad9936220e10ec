// Every form that React sends (an onSubmit) is a ClientForm, whose controls wait for hydration (client-form.tsx):
// a raw <form onSubmit> sent before hydration became a GET of the page with its fields in the URL.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { formsSentByReact } from "./client-form-scan";

const root = join(import.meta.dirname, "..", "..");

function tsxFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsxFiles(path);
    return path.endsWith(".tsx") ? [path] : [];
  });
}

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
      .flatMap((dir) => tsxFiles(join(root, dir)))
      .flatMap((file) => formsSentByReact(readFileSync(file, "utf8")).map((line) => `${relative(root, file)}:${line}`));
    expect(raw, "use ClientForm (components/forms/client-form.tsx) for a form with an onSubmit").toEqual([]);
  });
});
