-- wrk script: POST /api/pricing/dynamic with a realistic quote (5 days, SUV, two extras).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"entry_date":"2026-12-01T10:00","exit_date":"2026-12-05T13:00","vehicle_type":"SUV",' ..
           '"id_main_service":2,"additional_services":[1,3]}'
