package feed

import (
	"testing"
	"time"
)

func TestBrokerFanOutAndClose(t *testing.T) {
	var b Broker
	a, c := b.Subscribe(), b.Subscribe()
	b.Publish(Event{Kind: Started, ReservationID: 7})
	for _, s := range []*Subscription{a, c} {
		select {
		case e := <-s.C:
			if e.Kind != Started || e.ReservationID != 7 || e.ID != 1 || e.At.IsZero() {
				t.Errorf("event = %+v", e)
			}
		case <-time.After(time.Second):
			t.Fatal("no event")
		}
	}
	a.Close()
	a.Close() // twice is fine
	if n := b.Subscribers(); n != 1 {
		t.Errorf("subscribers = %d, want 1", n)
	}
	b.Close()
	if _, ok := <-c.C; ok {
		t.Error("channel open after broker close")
	}
	late := b.Subscribe()
	if _, ok := <-late.C; ok {
		t.Error("subscription after close is open")
	}
	b.Publish(Event{Kind: Cancelled}) // no panic on a closed broker
	c.Close()
}

// A subscriber that does not read is dropped instead of blocking the publisher.
func TestBrokerDropsSlowSubscriber(t *testing.T) {
	var b Broker
	slow := b.Subscribe()
	done := make(chan struct{})
	go func() {
		for i := 0; i < Buffer+10; i++ {
			b.Publish(Event{Kind: SpotChanged})
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("publisher blocked by a slow subscriber")
	}
	n := 0
	for range slow.C {
		n++
	}
	if n != Buffer {
		t.Errorf("slow subscriber got %d events before being dropped, want %d", n, Buffer)
	}
	if b.Subscribers() != 0 {
		t.Error("slow subscriber still subscribed")
	}
}

// Seq tells a reader whether events happened between two moments: a subscription
// starts at the broker's Seq, every event and every Reset moves it on.
func TestBrokerSeq(t *testing.T) {
	var b Broker
	page := b.Seq() // a page reads its position, then what the events describe
	s := b.Subscribe()
	if s.Seq != page {
		t.Errorf("subscription at %d, page at %d with nothing in between", s.Seq, page)
	}
	b.Publish(Event{Kind: Started, ReservationID: 1})
	late := b.Subscribe()
	if late.Seq == page || late.Seq != (<-s.C).ID {
		t.Errorf("after one event: page %d, new subscription %d", page, late.Seq)
	}
	before := b.Seq()
	b.Reset() // events may have been missed: no page read before is current
	if after := b.Subscribe(); after.Seq == before {
		t.Errorf("Seq did not move at Reset: %d", after.Seq)
	}
}
