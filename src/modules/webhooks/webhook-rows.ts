/** Rows of the webhook tables as the repositories answer them. */

export interface EndpointRow {
  id: string;
  organization_id: string;
  url: string;
  description: string | null;
  events: string[];
  is_active: boolean;
  secret_prefix: string;
  disabled_at: Date | null;
  disabled_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Where a delivery stands (`webhook_deliveries.status`). */
export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
  last_status_code: number | null;
  created_at: Date;
  completed_at: Date | null;
}

export interface AttemptRow {
  delivery_id: string;
  attempt: number;
  started_at: Date;
  duration_ms: number;
  status_code: number | null;
  response_excerpt: string | null;
  error: string | null;
}

/** A delivery claimed for its next attempt, with what sending it needs. */
export interface ClaimedRow {
  id: string;
  endpoint_id: string;
  event: string;
  body: string;
  /** Attempts made before this one. */
  attempts: number;
  url: string;
  secret_sealed: string;
  is_active: boolean;
}
