import { z } from "zod";
import { httpsLink } from "./fields";

/** What a timer shows once it has ended. Unknown keys are refused. */
export const endedSchema = z
  .strictObject({
    text: z
      .string()
      .max(200)
      .default("Ended")
      .meta({ description: "Text shown instead of the digits.", examples: ["Sale over"] }),
    image_url: httpsLink()
      .optional()
      .meta({
        description:
          "Image shown instead of the digits: on the hosted page and embed, and email images " +
          "(GIF, PNG) then answer 302 to it.",
      }),
    redirect_url: httpsLink()
      .optional()
      .meta({ description: "Where the hosted page sends viewers after the end." }),
    click_url: httpsLink()
      .optional()
      .meta({
        description:
          "Where the email link GET /t/{id}/go leads once the recipient's countdown has " +
          "ended. Absent: the hosted page.",
        examples: ["https://shop.example.com/offer-ended"],
      }),
  })
  .meta({ description: "What to show after the end." });

/** A timer's complete `ended` settings. */
export type Ended = z.output<typeof endedSchema>;

/** The `ended` settings of a timer created without any. */
export const DEFAULT_ENDED: Readonly<Ended> = Object.freeze({ text: "Ended" });
