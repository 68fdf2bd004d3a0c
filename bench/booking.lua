-- wrk script: POST /api/reservations/public-new. Each request books for a new
-- customer and a new vehicle (the most expensive path: five inserts), except every
-- fifth, which reuses an earlier customer and vehicle of the same thread.
local threads = {}
local counter = 0

function setup(thread)
  thread:set("tid", counter)
  counter = counter + 1
end

function init(args)
  n = 0
  stamp = os.time() % 100000
  -- A stay a week ahead: public bookings cannot start in the past (docs/dates.md#past-entries).
  entry = os.date("%Y-%m-%dT10:00", os.time() + 7 * 86400)
  exit = os.date("%Y-%m-%dT18:00", os.time() + 14 * 86400)
end

request = function()
  n = n + 1
  local k = n
  if n % 5 == 0 then k = n - 1 end
  -- A Spanish mobile number (9 digits from 6): phones must exist (docs/input-rules.md#phones).
  local phone = string.format("6%d%02d%05d", stamp % 10, tid, k % 100000)
  local plate = string.format("B%d%02d%07d", stamp % 10, tid, k)
  local body = string.format('{"full_name":"Cliente %d","phone":"%s","email":"c%d@example.com",' ..
    '"license_plate":"%s","vehicle_type":"TURISMO","entry_date":"%s",' ..
    '"exit_date":"%s","id_main_service":1,"additional_services":[1]}', k, phone, k, plate, entry, exit)
  -- Every request with its own Idempotency-Key (docs/public-booking.md#retries-idempotency-key):
  -- the key is claimed and answered in the booking's transaction, as a careful client would.
  -- BOOKING_NO_KEY (bench/featurecost.sh's no-key variant) leaves it out.
  local headers = {["Content-Type"] = "application/json"}
  if (os.getenv("BOOKING_NO_KEY") or "") == "" then
    headers["Idempotency-Key"] = string.format("bench-%d-%02d-%d", stamp, tid, n)
  end
  return wrk.format("POST", "/api/reservations/public-new", headers, body)
end
