package audit

import (
	"context"
	"reflect"
	"testing"
)

func TestCompare(t *testing.T) {
	for _, c := range []struct {
		name          string
		before, after Fields
		want          []Change
	}{
		{"equal", F("a", "1", "b", "2"), F("a", "1", "b", "2"), nil},
		{"created", nil, F("a", "1", "b", ""), []Change{{"a", "", "1"}}},
		{"deleted", F("a", "1", "b", ""), nil, []Change{{"a", "1", ""}}},
		{"changed in after's order", F("b", "2", "a", "1"), F("a", "9", "b", "8"), []Change{{"a", "1", "9"}, {"b", "2", "8"}}},
		{"field gone", F("a", "1", "x", "5"), F("a", "1"), []Change{{"x", "5", ""}}},
		{"field new", F("a", "1"), F("a", "1", "y", "6"), []Change{{"y", "", "6"}}},
	} {
		if got := Compare(c.before, c.after); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

func TestActorInContext(t *testing.T) {
	ctx := context.Background()
	if _, ok := ActorFrom(ctx); ok {
		t.Fatal("empty context carries an actor")
	}
	if got := ActorOr(ctx, System); got != System {
		t.Fatalf("ActorOr = %+v, want sistema", got)
	}
	a := Actor{Kind: KindStaff, ID: 3, Name: "Luis", Email: "luis@x.es"}
	if got := ActorOr(WithActor(ctx, a), System); got != a {
		t.Fatalf("ActorOr = %+v, want %+v", got, a)
	}
	for _, c := range []struct {
		a    Actor
		want string
	}{{a, "Luis <luis@x.es>"}, {Public, "público"}, {ManageLink, "cliente (enlace)"}, {Actor{ID: 4, Email: "e@x.es"}, "e@x.es"}} {
		if got := c.a.Label(); got != c.want {
			t.Errorf("Label(%+v) = %q, want %q", c.a, got, c.want)
		}
	}
}
