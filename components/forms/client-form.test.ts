// Every form that React sends (an onSubmit) is a ClientForm, whose controls wait for hydration (client-form.tsx):
// a raw <form onSubmit> sent before hydration became a GET of the page with its fields in the URL.
import { describe, expect, it } from "vitest";
import { formsSentByReact, scanSources } from "../hydration-scan";

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
    expect(
      scanSources(formsSentByReact),
      "use ClientForm (components/forms/client-form.tsx) for a form with an onSubmit",
    ).toEqual([]);
  });
});
