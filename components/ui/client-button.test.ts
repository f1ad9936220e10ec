// Every button whose click React carries out (an onClick) waits for hydration (client-button.tsx): a raw
// <button onClick> in the server's HTML looked clickable, and a click on it before hydration did nothing.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { buttonsClickedByReact } from "./client-button-scan";

const root = join(import.meta.dirname, "..", "..");

const tsxFiles = (dir: string) =>
  (readdirSync(join(root, dir), { recursive: true }) as string[])
    .filter((f) => f.endsWith(".tsx"))
    .map((f) => join(root, dir, f));

describe("buttons clicked by React", () => {
  it("finds a raw <button> with an onClick, and only that", () => {
    expect(buttonsClickedByReact(`<button type="button" onClick={go}>`)).toEqual([1]);
    expect(buttonsClickedByReact(`<div>\n  <button\n    type="button"\n    onClick={() => {\n`)).toEqual([2]);
    expect(buttonsClickedByReact(`<button ref={(el) => (b = el)} onClick={go}>`)).toEqual([1]);
    expect(buttonsClickedByReact(`<ClientButton onClick={go}>`)).toEqual([]);
    expect(buttonsClickedByReact(`<Button onClick={go}>`)).toEqual([]);
    expect(buttonsClickedByReact(`<button type="submit">`)).toEqual([]);
  });

  it("every one in app/ and components/ is a ClientButton", () => {
    const raw = ["app", "components"]
      .flatMap(tsxFiles)
      .filter((file) => !file.endsWith(join("components", "ui", "client-button.tsx")))
      .flatMap((file) =>
        buttonsClickedByReact(readFileSync(file, "utf8")).map((line) => `${relative(root, file)}:${line}`),
      );
    expect(raw, "use ClientButton (components/ui/client-button.tsx) or Button for a button with an onClick").toEqual(
      [],
    );
  });
});
