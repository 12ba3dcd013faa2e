/** Game event calls of the admin events screen, validated by the shared schema. */
import { gameEventInputSchema } from "@/lib/domain/schemas/match_day.ts";
import { eventLabel } from "@/lib/domain/scoring.ts";
import { toast, toastError } from "@/lib/client/toast.ts";
import { adminFetch, errorText } from "@/lib/client/admin/admin_api.ts";
import { type FieldErrors, issuesToErrors } from "@/lib/client/form_errors.ts";

export interface EventFormValues {
  playerId: string;
  eventType: string;
  minute: string;
  description: string;
}

export const EMPTY_EVENT: EventFormValues = {
  playerId: "",
  eventType: "",
  minute: "",
  description: "",
};

/** Field errors of the event form, or null when it is valid. */
export function validateEvent(v: EventFormValues): FieldErrors | null {
  const parsed = gameEventInputSchema.safeParse(v);
  return parsed.success ? null : issuesToErrors(parsed.error.issues);
}

/** Creates an event (minute sent as a whole number); resolves true on success. */
export async function createEvent(competitionId: number, v: EventFormValues): Promise<boolean> {
  const body = gameEventInputSchema.parse(v);
  try {
    await adminFetch(`/api/admin/competitions/${competitionId}/events`, { method: "POST", body });
    const minute = body.minute === null ? "" : ` (${body.minute}')`;
    toast({
      title: "Event created",
      description: `${eventLabel(body.eventType)}${minute} recorded.`,
    });
    return true;
  } catch (err) {
    toast({
      title: "Error creating event",
      description: errorText(err, "Failed to create event"),
      variant: "destructive",
    });
    return false;
  }
}

/** Deletes an event, which reverses its effect on the player's stats; resolves true on success. */
export async function deleteEvent(competitionId: number, eventId: number): Promise<boolean> {
  try {
    await adminFetch(`/api/admin/competitions/${competitionId}/events/${eventId}`, {
      method: "DELETE",
    });
    toast({ title: "Event Deleted", description: "The player's stats were corrected." });
    return true;
  } catch (err) {
    toastError(errorText(err, "Failed to delete event"));
    return false;
  }
}
