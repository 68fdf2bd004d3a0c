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
end

request = function()
  n = n + 1
  local k = n
  if n % 5 == 0 then k = n - 1 end
  local phone = string.format("7%d%02d%07d", stamp % 10, tid, k)
  local plate = string.format("B%d%02d%07d", stamp % 10, tid, k)
  local body = string.format('{"full_name":"Cliente %d","phone":"%s","email":"c%d@example.com",' ..
    '"license_plate":"%s","vehicle_type":"TURISMO","entry_date":"2026-12-01T10:00",' ..
    '"exit_date":"2026-12-08T18:00","id_main_service":1,"additional_services":[1]}', k, phone, k, plate)
  return wrk.format("POST", "/api/reservations/public-new", {["Content-Type"] = "application/json"}, body)
end
