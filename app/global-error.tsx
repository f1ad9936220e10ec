"use client";

// Last resort when the root layout itself fails: no translations available, no details shown.
export default function GlobalError({ error }: { error: Error & { digest?: string } }) {
  return (
    <html lang="en">
      <body>
        <main style={{ padding: "2rem", fontFamily: "system-ui" }}>
          <h1>Something went wrong</h1>
          <p>The page could not be shown. Reference: {error.digest ?? "-"}</p>
        </main>
      </body>
    </html>
  );
}
