-- Notification delivery (docs/notifications.md#delivery). lease_token names the claim of the worker that
-- holds a row (locked_until is the lease's end), so that an outcome is recorded only
-- by the worker whose claim is still current, never by one whose lease expired and
-- was taken over. The partial index serves the operators' list of failed deliveries.
ALTER TABLE notification ADD COLUMN lease_token TEXT;
CREATE INDEX notification_failed ON notification (created_at) WHERE status = 'failed';
