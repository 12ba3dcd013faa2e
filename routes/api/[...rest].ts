/** Any /api path no other route answers: a JSON 404 for every method (via apiErrorsPlugin). */
import { NotFoundError } from "@/lib/domain/errors.ts";

export function handler(): Response {
  throw new NotFoundError();
}
