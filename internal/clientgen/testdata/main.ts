// A partner's program that knows the service only through the client generated from
// its OpenAPI document (./client, written by the test): it books, reads and cancels
// one stay and prints the three answers as JSON. tsc type-checks every call and body
// against the generated types, so a document that drifts from this use fails to compile.
import { createPartnerBooking, getPartnerBooking, cancelPartnerBooking } from './client/sdk.gen';
import { client } from './client/client.gen';
import type { PartnerBookingRequest } from './client/types.gen';

declare const process: { argv: string[]; exitCode?: number };

async function main(): Promise<void> {
  const [baseUrl, key, reference, entry, exit] = process.argv.slice(2);
  client.setConfig({ baseUrl, auth: () => key });
  const body: PartnerBookingRequest = {
    partner_reference: reference,
    full_name: 'Ana Cliente',
    phone: '+34611222333',
    email: 'ana@example.com',
    license_plate: '4321GEN',
    vehicle_type: 'Turismo',
    entry_date: entry,
    exit_date: exit,
    id_main_service: 1,
  };
  const booked = await createPartnerBooking({ body });
  const path = { partner_reference: booked.data?.data.partner_reference ?? reference };
  const read = await getPartnerBooking({ path });
  const cancelled = await cancelPartnerBooking({ path });
  const answer = (r: { data?: unknown; error?: unknown; response?: Response }) => ({
    status: r.response?.status ?? 0,
    data: r.data ?? null,
    error: r.error ?? null,
  });
  console.log(JSON.stringify({ booked: answer(booked), read: answer(read), cancelled: answer(cancelled) }));
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
