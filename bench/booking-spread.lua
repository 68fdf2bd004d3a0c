-- wrk script: booking.lua with the stays spread over 60 days (entries 7 to 66 days
-- ahead, a week each) instead of one week for every request: closer to real traffic
-- for the occupancy ledger, whose rows of one day every booking of that day updates.
local threads = {}
local counter = 0

function setup(thread)
  thread:set("tid", counter)
  counter = counter + 1
end

function init(args)
  n = 0
  stamp = os.time() % 100000
  base = os.time()
end

request = function()
  n = n + 1
  local k = n
  if n % 5 == 0 then k = n - 1 end
  -- A Spanish mobile number (9 digits from 6): phones must exist (docs/input-rules.md#phones).
  local phone = string.format("6%d%02d%05d", stamp % 10, tid, k % 100000)
  local plate = string.format("B%d%02d%07d", stamp % 10, tid, k)
  local d = 7 + (n * 7 + tid) % 60
  local entry = os.date("%Y-%m-%dT10:00", base + d * 86400)
  local exit = os.date("%Y-%m-%dT18:00", base + (d + 7) * 86400)
  local body = string.format('{"full_name":"Cliente %d","phone":"%s","email":"c%d@example.com",' ..
    '"license_plate":"%s","vehicle_type":"TURISMO","entry_date":"%s",' ..
    '"exit_date":"%s","id_main_service":1,"additional_services":[1]}', k, phone, k, plate, entry, exit)
  return wrk.format("POST", "/api/reservations/public-new", {["Content-Type"] = "application/json"}, body)
end
