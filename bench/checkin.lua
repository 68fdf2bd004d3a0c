-- wrk script: PATCH /admin/reservations/{id}/start, each id of FIRST..LAST once
-- (bench/checkinprep readies them), with the staff session in COOKIE. A thread stops
-- when its ids run out, so the figure is the check-ins done over the time taken.
local counter = 0

function setup(thread)
  thread:set("tid", counter)
  counter = counter + 1
end

function init(args)
  first = tonumber(os.getenv("FIRST"))
  last = tonumber(os.getenv("LAST"))
  nthreads = tonumber(os.getenv("THREADS") or "2")
  cookie = os.getenv("COOKIE")
  k = 0
end

request = function()
  local id = first + tid + k * nthreads
  k = k + 1
  if id > last then id = last end
  return wrk.format("PATCH", "/admin/reservations/" .. id .. "/start",
    {["Content-Type"] = "application/json", ["Cookie"] = cookie, ["Accept"] = "application/json"}, "{}")
end

-- Checked after each answer, before wrk asks for the next request: the requests in
-- flight all carry ids not yet used, so none is refused for being started already.
response = function(status, headers, body)
  if first + tid + k * nthreads > last then
    wrk.thread:stop()
  end
end
