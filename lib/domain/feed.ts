/** What the Feed page and the feed's storage share: providers and the log of deliveries. */

/** One signing secret of a provider. */
export interface FeedSecret {
  secret: string;
  createdAt: string;
}

/**
 * A data provider. `secrets` holds the current secret first and, during a rotation, the previous
 * one: requests signed with either are accepted until the previous one is retired.
 */
export interface FeedProvider {
  name: string;
  secrets: FeedSecret[];
  createdAt: string;
}

/** What became of one provider event. */
export type FeedEventStatus = "APPLIED" | "REFUSED" | "WITHDRAWN" | "IGNORED";

/** One delivery as the Feed page lists it. */
export interface FeedLogEntry {
  id: number;
  provider: string;
  eventId: string;
  version: number;
  type: string;
  matchId: number;
  playerId: number | null;
  minute: number | null;
  /** APPLIED, REFUSED, WITHDRAWN, IGNORED (older than what is stored) or DUPLICATE. */
  outcome: FeedEventStatus | "DUPLICATE";
  reason: string | null;
  receivedAt: string;
}
