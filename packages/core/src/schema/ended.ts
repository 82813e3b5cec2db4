import { z } from "zod";
import { httpsUrl } from "./fields";

/** What a timer shows once it has ended. Unknown keys are refused. */
export const endedSchema = z
  .strictObject({
    text: z
      .string()
      .max(200)
      .default("Ended")
      .meta({ description: "Text shown instead of the digits.", examples: ["Sale over"] }),
    image_url: httpsUrl()
      .optional()
      .meta({ description: "Image shown instead of the digits (hosted page, embed)." }),
    redirect_url: httpsUrl()
      .optional()
      .meta({ description: "Where the hosted page sends viewers after the end." }),
  })
  .meta({ description: "What to show after the end." });

/** A timer's complete `ended` settings. */
export type Ended = z.output<typeof endedSchema>;

/** The `ended` settings of a timer created without any. */
export const DEFAULT_ENDED: Readonly<Ended> = Object.freeze({ text: "Ended" });
