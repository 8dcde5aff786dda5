package errgroupfix

import (
	"context"
	"errors"
	"fmt"
	"io"

	"golang.org/x/sync/errgroup"
)

type User struct{ Name string }
type Order struct{ ID int }

func loadUser(ctx context.Context) (User, error)             { return User{}, nil }
func loadOrders(ctx context.Context) ([]Order, error)        { return nil, nil }
func loadCount(ctx context.Context, id int) (int, error)     { return id, nil }
func ping(ctx context.Context) error                         { return nil }
func slow() (string, error)                                  { return "", nil }
func variadic(ctx context.Context, o ...int) (string, error) { return "", nil }

type store struct{}

func (s *store) user(ctx context.Context) (User, error) { return User{}, nil }

// True positives: each gets the fix.

// The README's shape.
func readme(ctx context.Context) (User, []Order, error) {
	var user User
	var orders []Order
	g, ctx := errgroup.WithContext(ctx) // want `this errgroup fan-out of 2 g.Go calls is task.Run2: rewrite it to get typed results, every error and panics passed to the caller`
	g.Go(func() error {
		var err error
		user, err = loadUser(ctx)
		return err
	})
	g.Go(func() error {
		var err error
		orders, err = loadOrders(ctx)
		return err
	})
	if err := g.Wait(); err != nil {
		return User{}, nil, err
	}
	return user, orders, nil
}

// Assign on success only; err := g.Wait(); a method value; an adapter for
// extra arguments; a call with only an error.
func shapes(ctx context.Context, s *store, id int) (string, error) {
	var (
		u User
		n int
	)
	eg, gctx := errgroup.WithContext(ctx) // want `this errgroup fan-out of 3 eg.Go calls is task.Run3`
	eg.Go(func() error {
		r, err := s.user(gctx)
		if err != nil {
			return err
		}
		u = r
		return nil
	})
	eg.Go(func() error {
		var err error
		n, err = loadCount(gctx, id)
		if err != nil {
			return err
		}
		return nil
	})
	eg.Go(func() error {
		return ping(gctx)
	})
	err := eg.Wait()
	if err != nil {
		return "", fmt.Errorf("shapes: %w", err)
	}
	return fmt.Sprint(u.Name, n), nil
}

// A zero Group cancels nothing: KeepGoing, the calls get ctx itself.
func zero(ctx context.Context) error {
	var user User
	var name string
	var g errgroup.Group // want `this errgroup fan-out of 2 g.Go calls is task.Run2`
	g.Go(func() (err error) {
		user, err = loadUser(ctx)
		return
	})
	g.Go(func() (err error) {
		name, err = variadic(ctx)
		return err
	})
	if err := g.Wait(); err != nil {
		if errors.Is(err, io.EOF) {
			return nil
		}
		return err
	}
	fmt.Println(user, name)
	return nil
}

// Near misses: nothing reported.

// A closure that does more than assign.
func doesMore(ctx context.Context) error {
	var user User
	var orders []Order
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		var err error
		user, err = loadUser(ctx)
		fmt.Println("loaded")
		return err
	})
	g.Go(func() error {
		var err error
		orders, err = loadOrders(ctx)
		return err
	})
	if err := g.Wait(); err != nil {
		return err
	}
	fmt.Println(user, orders)
	return nil
}

// The derived context is used after Wait: it is canceled there.
func ctxAfterWait(ctx context.Context) error {
	var user User
	var orders []Order
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		var err error
		user, err = loadUser(ctx)
		return err
	})
	g.Go(func() error {
		var err error
		orders, err = loadOrders(ctx)
		return err
	})
	if err := g.Wait(); err != nil {
		return err
	}
	fmt.Println(user, orders)
	return ping(ctx)
}

// The group is passed on.
func passedOn(ctx context.Context) error {
	var user User
	var orders []Order
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		var err error
		user, err = loadUser(ctx)
		return err
	})
	g.Go(func() error {
		var err error
		orders, err = loadOrders(ctx)
		return err
	})
	more(g)
	if err := g.Wait(); err != nil {
		return err
	}
	fmt.Println(user, orders)
	return nil
}

func more(g *errgroup.Group) {}

// SetLimit on a fixed fan-out: RunN has no limit.
func limited(ctx context.Context) error {
	var user User
	var orders []Order
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(1)
	g.Go(func() error {
		var err error
		user, err = loadUser(ctx)
		return err
	})
	g.Go(func() error {
		var err error
		orders, err = loadOrders(ctx)
		return err
	})
	if err := g.Wait(); err != nil {
		return err
	}
	fmt.Println(user, orders)
	return nil
}

// A result is read before Wait.
func readBefore(ctx context.Context) error {
	var user User
	var orders []Order
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		var err error
		user, err = loadUser(ctx)
		return err
	})
	g.Go(func() error {
		var err error
		orders, err = loadOrders(ctx)
		fmt.Println(user)
		return err
	})
	if err := g.Wait(); err != nil {
		return err
	}
	fmt.Println(orders)
	return nil
}

// A result is read on the error path: errgroup leaves partial results,
// RunN zero values.
func readOnError(ctx context.Context) (User, error) {
	var user User
	var orders []Order
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		var err error
		user, err = loadUser(ctx)
		return err
	})
	g.Go(func() error {
		var err error
		orders, err = loadOrders(ctx)
		return err
	})
	if err := g.Wait(); err != nil {
		return user, err
	}
	fmt.Println(orders)
	return user, nil
}

// The error is compared with ==: RunN wraps it.
func compared(ctx context.Context) error {
	var user User
	var orders []Order
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		var err error
		user, err = loadUser(ctx)
		return err
	})
	g.Go(func() error {
		var err error
		orders, err = loadOrders(ctx)
		return err
	})
	if err := g.Wait(); err != nil {
		if err == io.EOF {
			return nil
		}
		return err
	}
	fmt.Println(user, orders)
	return nil
}

// One g.Go: there is no Run1.
func single(ctx context.Context) error {
	var user User
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		var err error
		user, err = loadUser(ctx)
		return err
	})
	if err := g.Wait(); err != nil {
		return err
	}
	fmt.Println(user)
	return nil
}

// Results declared elsewhere (a parameter, a field) or with other variables.
func declaredElsewhere(ctx context.Context, user *User) error {
	var orders []Order
	var other int
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		var err error
		*user, err = loadUser(ctx)
		return err
	})
	g.Go(func() error {
		var err error
		orders, err = loadOrders(ctx)
		return err
	})
	if err := g.Wait(); err != nil {
		return err
	}
	fmt.Println(orders, other)
	return nil
}

// The if's err would hide the named result that a naked return reads.
func namedErr(ctx context.Context) (err error) {
	var user User
	var orders []Order
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		var err error
		user, err = loadUser(ctx)
		return err
	})
	g.Go(func() error {
		var err error
		orders, err = loadOrders(ctx)
		return err
	})
	if err := g.Wait(); err != nil {
		return err
	}
	fmt.Println(user, orders)
	return
}

// The zero group's calls use no context: nothing to give RunN.
func noContext() error {
	var a, b string
	var g errgroup.Group
	g.Go(func() error {
		var err error
		a, err = slow()
		return err
	})
	g.Go(func() error {
		var err error
		b, err = slow()
		return err
	})
	if err := g.Wait(); err != nil {
		return err
	}
	fmt.Println(a, b)
	return nil
}

// Wait's error is returned directly.
func returnsWait(ctx context.Context) error {
	var user User
	var orders []Order
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		var err error
		user, err = loadUser(ctx)
		return err
	})
	g.Go(func() error {
		var err error
		orders, err = loadOrders(ctx)
		return err
	})
	fmt.Println(user, orders)
	return g.Wait()
}

// The derived context reassigns a parameter inside a loop: the next
// iteration derives from it.
func inLoop(ctx context.Context) error {
	for range 2 {
		var user User
		var orders []Order
		var g *errgroup.Group
		g, ctx = errgroup.WithContext(ctx)
		g.Go(func() error {
			var err error
			user, err = loadUser(ctx)
			return err
		})
		g.Go(func() error {
			var err error
			orders, err = loadOrders(ctx)
			return err
		})
		if err := g.Wait(); err != nil {
			return err
		}
		fmt.Println(user, orders)
	}
	return nil
}

// A loop with SetLimit: errgroup keeps calling after a failure, task.Map
// does not, so it is left alone.
func loop(ctx context.Context, ids []int) ([]int, error) {
	counts := make([]int, len(ids))
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(4)
	for i, id := range ids {
		g.Go(func() error {
			var err error
			counts[i], err = loadCount(ctx, id)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return counts, nil
}

// The group declared in one var block with the results.
func varBlock(ctx context.Context, id int) (User, error) {
	var ( // want `this errgroup fan-out of 2 eg.Go calls is task.Run2`
		user  User
		count int
		eg    errgroup.Group
	)
	eg.Go(func() error {
		var err error
		user, err = loadUser(ctx)
		return err
	})

	// a comment between
	eg.Go(func() error {
		var err error
		count, err = loadCount(ctx, id)
		return err
	})
	if err := eg.Wait(); err != nil {
		return User{}, err
	}
	user.Name = fmt.Sprint(count)
	return user, nil
}
