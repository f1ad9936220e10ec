// Every button whose click React carries out (an onClick) waits for hydration (client-button.tsx): a raw
// <button onClick> in the server's HTML looked clickable, and a click on it before hydration did nothing.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buttonsClickedByReact, scanSources } from "../hydration-scan";

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
    expect(
      scanSources(buttonsClickedByReact, [join("components", "ui", "client-button.tsx")]),
      "use ClientButton (components/ui/client-button.tsx) or Button for a button with an onClick",
    ).toEqual([]);
  });
});
