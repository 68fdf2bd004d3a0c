package ui

import (
	"net/http"
	"net/url"
	"strconv"
	"time"

	"parking/internal/audit"
	"parking/internal/localtime"
	"parking/internal/records"
	"parking/internal/web/httpx"
)

// The audit trail pages (docs/staff-and-audit.md): GET /admin/audit filters the
// whole trail by person, reservation and days, 50 a page, newest first; the
// reservation detail page shows its own trail. JSON clients of /admin/audit get
// {"entries":[…],"total_count","page","page_size","total_pages"}.

// auditEntryJSON is one trail entry on the wire.
type auditEntryJSON struct {
	ID            int64             `json:"id"`
	At            string            `json:"at"`
	Actor         auditActorJSON    `json:"actor"`
	Action        string            `json:"action"`
	Entity        string            `json:"entity"`
	EntityID      string            `json:"entity_id"`
	ReservationID *int64            `json:"reservation_id"`
	Changes       []auditChangeJSON `json:"changes"`
}

type auditActorJSON struct {
	Kind  string `json:"kind"`
	ID    *int64 `json:"id"`
	Name  string `json:"name"`
	Email string `json:"email,omitempty"`
}

type auditChangeJSON struct {
	Field  string `json:"field"`
	Before string `json:"before"`
	After  string `json:"after"`
}

func (s recordsPages) auditJSON(rows []audit.Record) []auditEntryJSON {
	out := make([]auditEntryJSON, len(rows))
	for i, e := range rows {
		j := auditEntryJSON{ID: e.ID, At: localtime.JSON(e.At, s.cfg.Location), Action: e.Action, Entity: e.Entity, EntityID: e.EntityID,
			Actor:   auditActorJSON{Kind: string(e.Actor.Kind), Name: e.Actor.Name, Email: e.Actor.Email},
			Changes: make([]auditChangeJSON, len(e.Changes))}
		if e.Actor.ID != 0 {
			id := e.Actor.ID
			j.Actor.ID = &id
		}
		if e.ReservationID != 0 {
			id := e.ReservationID
			j.ReservationID = &id
		}
		for k, c := range e.Changes {
			j.Changes[k] = auditChangeJSON(c)
		}
		out[i] = j
	}
	return out
}

// auditActionLabels and auditEntityLabels are how the pages name actions and
// entities.
var auditActionLabels = map[string]string{
	audit.ActionCreate: "Alta", audit.ActionArrived: "Llegada (cámara)", audit.ActionWalkIn: "Reserva en mostrador", audit.ActionUpdate: "Modificación",
	audit.ActionCustomerEdit: "Modificación por el cliente", audit.ActionCancel: "Cancelación", audit.ActionStart: "Entrada del vehículo",
	audit.ActionFinalize: "Salida y pago", audit.ActionSpot: "Plaza", audit.ActionPhoto: "Foto añadida",
	audit.ActionInvoiceRequest: "Factura solicitada", audit.ActionDelete: "Eliminación", audit.ActionDisable: "Cuenta desactivada",
	audit.ActionEnable: "Cuenta activada", audit.ActionPassword: "Contraseña cambiada", audit.ActionSettings: "Ajustes guardados",
	audit.ActionOverCapacity: "Aceptada aunque completo",
}

var auditEntityLabels = map[string]string{
	audit.EntityReservation: "Reserva", audit.EntityMainService: "Servicio principal", audit.EntityRate: "Tarifa",
	audit.EntityVehicleType: "Tipo de vehículo", audit.EntityExtra: "Servicio adicional", audit.EntitySettings: "Ajustes",
	audit.EntityStaff: "Personal", audit.EntityGateDevice: "Cámara",
}

// auditLabel names code k for people in wd's language: the catalogue's
// "prefix.k" for the codes m names (m is the Spanish, and the list of known
// codes), the code itself otherwise.
func auditLabel(wd words, prefix string, m map[string]string, k string) string {
	if _, ok := m[k]; ok {
		return wd.t(prefix + "." + k)
	}
	return k
}

// auditFieldLabels name the recorded fields for people (the JSON keeps the names
// of the trail, which are the spec's field names).
var auditFieldLabels = map[string]string{
	"status": "Estado", "entry_date": "Entrada", "exit_date": "Salida", "id_main_service": "Servicio principal",
	"additional_services": "Servicios adicionales", "total_price": "Precio total", "is_paid": "Pagada",
	"payment_method": "Forma de pago", "cod_parking_spot": "Plaza", "notes": "Notas",
	"contact.full_name": "Contacto: nombre", "contact.email": "Contacto: correo", "contact.phone": "Contacto: teléfono",
	"customer.full_name": "Cliente: nombre", "customer.email": "Cliente: correo", "customer.phone": "Cliente: teléfono",
	"license_plate": "Matrícula", "brand": "Marca", "model": "Modelo", "color": "Color", "vehicle_type": "Tipo de vehículo",
	"photos": "Fotos", "photo": "Foto", "notification": "Aviso",
	"name": "Nombre", "description": "Descripción", "active": "Activo", "min_days": "Desde (días)", "max_days": "Hasta (días)",
	"daily_price": "Precio diario", "coefficient": "Coeficiente", "price": "Precio",
	"full_name": "Nombre", "email": "Correo", "password": "Contraseña",
	"capacity": "Plazas", "sellable": "Plazas a la venta", "tax_id": "NIF", "address": "Dirección", "phone": "Teléfono",
	"vat_rate": "IVA", "photo_retention_days": "Conservación de fotos (días)", "charge_overstay": "Cobrar la estancia real de salidas tardías",
	"exit_grace_minutes": "Margen de salida tras el pago (minutos)", "arrived_at": "Llegada",
	"arrival_es": "Instrucciones de llegada (español)", "arrival_en": "Instrucciones de llegada (inglés)",
	"arrival_de": "Instrucciones de llegada (alemán)", "arrival_fr": "Instrucciones de llegada (francés)",
}

// auditRowView is one entry on a page.
type auditRowView struct {
	At            time.Time
	Actor         string
	Action        string
	Entity        string
	EntityID      string
	ReservationID int64
	Changes       []auditChangeView
}

type auditChangeView struct {
	Field, Before, After string
}

func auditRows(rows []audit.Record, wd words) []auditRowView {
	out := make([]auditRowView, len(rows))
	for i, e := range rows {
		out[i] = auditRowView{At: e.At, Actor: e.Actor.Label(), Action: auditLabel(wd, "audit.action", auditActionLabels, e.Action),
			Entity: auditLabel(wd, "audit.entity", auditEntityLabels, e.Entity), EntityID: e.EntityID, ReservationID: e.ReservationID}
		for _, c := range e.Changes {
			out[i].Changes = append(out[i].Changes, auditChangeView{Field: auditLabel(wd, "audit.field", auditFieldLabels, c.Field), Before: c.Before, After: c.After})
		}
	}
	return out
}

// auditPageView is the data of admin_audit.html.
type auditPageView struct {
	Person, Reservation, From, To string
	Error                         string
	Rows                          []auditRowView
	Total, Page, Pages            int
	Prev, Next                    string
}

// adminAudit is GET /admin/audit?person=&reservation=&from=&to=&page=.
func (s recordsPages) adminAudit(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	aq := records.AuditQuery{Person: q.Get("person"), Reservation: q.Get("reservation"), From: q.Get("from"), To: q.Get("to")}
	aq.Page, _ = strconv.Atoi(q.Get("page"))
	page, err := s.records.AuditTrail(r.Context(), aq)
	if httpx.WantsJSON(r) {
		if err != nil {
			s.WriteSuccessFalse(w, r, err)
			return
		}
		httpx.WriteJSON(w, http.StatusOK, map[string]any{"entries": s.auditJSON(page.Entries), "total_count": page.Total,
			"page": page.Page, "page_size": page.PageSize, "total_pages": page.TotalPages})
		return
	}
	v := auditPageView{Person: aq.Person, Reservation: aq.Reservation, From: aq.From, To: aq.To}
	status := http.StatusOK
	if err != nil {
		status = s.FailureStatus(r, err)
		v.Error = s.failText(r, err)
	} else {
		v.Rows, v.Total, v.Page, v.Pages = auditRows(page.Entries, s.words(r)), page.Total, page.Page, page.TotalPages
		link := func(p int) string {
			u := url.Values{}
			for k, val := range map[string]string{"person": aq.Person, "reservation": aq.Reservation, "from": aq.From, "to": aq.To} {
				if val != "" {
					u.Set(k, val)
				}
			}
			u.Set("page", strconv.Itoa(p))
			return "/admin/audit?" + u.Encode()
		}
		if v.Page > 1 {
			v.Prev = link(v.Page - 1)
		}
		if v.Page < v.Pages {
			v.Next = link(v.Page + 1)
		}
	}
	s.render(w, r, status, "admin_audit.html", "title.audit", v)
}
