// The bulk message kind's agent tool (docs/action-kinds.md, "The bulk message"): prepare_bulk_message makes a proposal
// to send one text to every customer of a segment an admin declared. The model names the segment, the channel and the
// exact text; the server computes the audience from the tenant's orders (count, a masked sample, a digest of the
// recipients), the send window and the policy. Client-safe: the catalogue publishes it through the registry; how it
// runs is ./server.ts.
import { z } from "zod";
import { segmentSlug } from "@/lib/schemas/segments";
import { declareKindTools } from "../kind";

export const BULK_MESSAGE_KIND = "send_bulk_message";

export const bulkMessageChannels = ["email", "sms"] as const;
export type BulkMessageChannel = (typeof bulkMessageChannels)[number];

/** The longest text one bulk message may carry (characters, as JavaScript counts them). */
export const MAX_BULK_TEXT = 1_000;

export const prepareBulkMessageInput = z.strictObject({
  segment: segmentSlug,
  channel: z.enum(bulkMessageChannels).describe("How the message is sent: email or sms."),
  text: z
    .string()
    .min(1)
    .max(MAX_BULK_TEXT)
    .refine((t) => t.trim().length > 0, { message: "the text must not be blank" })
    .describe(
      `The exact message every recipient receives, 1 to ${MAX_BULK_TEXT} characters, sent as written (no placeholders are filled in).`,
    ),
});
export type PrepareBulkMessageInput = z.infer<typeof prepareBulkMessageInput>;

export const bulkMessageKindTools = declareKindTools({
  kind: BULK_MESSAGE_KIND,
  auditEvents: ["execution:batch_sent", "execution:batch_unknown", "execution:batches_done"],
  tools: {
    prepare_bulk_message: {
      title: "Prepare a message to a customer segment for approval",
      // Prepares only (a proposal; nothing is sent yet); a repeat with the same text answers the same proposal.
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      description:
        "Prepare one message (e-mail or SMS) to every customer of a segment the shop's admins declared, for people to approve. Call it when a staff member asks for a message to a named segment and has given the exact text (not otherwise). The server works out who receives it (from the shop's orders), how many, and when it may be sent; the reviewers see the count, a masked sample and the text. Nothing is sent until it is approved; then the shop sends it in batches; get_action_status says when it is done. Calling it again with the same text returns the same pending proposal; another text or channel replaces it.",
      input: prepareBulkMessageInput,
    },
  },
});
