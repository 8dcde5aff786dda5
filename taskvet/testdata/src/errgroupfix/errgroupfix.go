package errgroupfix

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/stretchr/testify/require"
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
	g, ctx := errgroup.WithContext(ctx) // want `this errgroup fan-out of 2 g.Go calls is task.Run2: rewrite it to get typed results and panics passed to the caller; the error is errgroup's \(FirstError\)`
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
	eg, gctx := errgroup.WithContext(ctx) // want `this errgroup group \(eg\) is a task.Group in place`
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

// A closure that does more than assign: its body becomes the function,
// which returns the result it used to store.
func doesMore(ctx context.Context) error {
	var user User
	var orders []Order
	g, ctx := errgroup.WithContext(ctx) // want `this errgroup fan-out of 2 g.Go calls is task.Run2`
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
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
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
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
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

// SetLimit on a fixed fan-out: RunN has no limit, a Scope has.
func limited(ctx context.Context) error {
	var user User
	var orders []Order
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
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

// A variable read by another closure is not a result: it stays captured
// (and racy, as it was).
func readBefore(ctx context.Context) error {
	var user User
	var orders []Order
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
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
// and so does RunN with Settled.
func readOnError(ctx context.Context) (User, error) {
	var user User
	var orders []Order
	g, ctx := errgroup.WithContext(ctx) // want `task.Run2`
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

// The error is compared with ==: RunN with FirstError returns errgroup's
// error, the same value.
func compared(ctx context.Context) error {
	var user User
	var orders []Order
	g, ctx := errgroup.WithContext(ctx) // want `this errgroup fan-out of 2 g.Go calls is task.Run2: rewrite it to get typed results and panics passed to the caller; the error is errgroup's \(FirstError\)`
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

// Error-only functions whose error is compared with ==: not Do, whose error
// is a *task.CallError, but a Scope, which returns errgroup's.
func comparedDo(ctx context.Context) error {
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
	g.Go(func() error { return ping(ctx) })
	g.Go(func() error { return ping(ctx) })
	err := g.Wait()
	if err == io.EOF {
		return nil
	}
	return err
}

// Near misses: nothing reported.

// One g.Go: there is no Run1, Do runs it as errgroup did.
func single(ctx context.Context) error {
	var user User
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
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

// Results declared elsewhere (a parameter, a field) stay where they are.
func declaredElsewhere(ctx context.Context, user *User) error {
	var orders []Order
	var other int
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
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

// The if's err would hide the named result that a naked return reads: a
// Scope keeps the if's own err.
func namedErr(ctx context.Context) (err error) {
	var user User
	var orders []Order
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
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

// The zero group's calls use no context: RunN gets context.Background().
func noContext() error {
	var a, b string
	var g errgroup.Group // want `task.Run2`
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

// Statements between the Go calls and the wait run while the functions
// do: they go into a Scope's body. (The reads race, as they did.)
func returnsWait(ctx context.Context) error {
	var user User
	var orders []Order
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
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
		g, ctx = errgroup.WithContext(ctx) // want `task.Group in place`
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

// A loop with SetLimit that stores by index: task.Map.
func loop(ctx context.Context, ids []int) ([]int, error) {
	counts := make([]int, len(ids))
	g, ctx := errgroup.WithContext(ctx) // want `task.Map`
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

// True positives again.

// The group declared in one var block with the results.
func varBlock(ctx context.Context, id int) (User, error) {
	var (
		user  User
		count int
		eg    errgroup.Group // want `this errgroup group \(eg\) is a task.Group in place`
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

// The two literals of a zero Group.
func literal(ctx context.Context) error {
	var user User
	var orders []Order
	g := errgroup.Group{} // want `task.Run2`
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

func pointerLiteral(ctx context.Context) error {
	g := &errgroup.Group{} // want `task.Group in place`
	g.Go(func() error { return ping(ctx) })
	g.Go(func() error { return ping(ctx) })
	return g.Wait()
}

// Inside an if and a loop body, ctx := declares the derived context, which
// the fix removes: RunN gets the parent.
func inBlock(ctx context.Context, ok bool, ids []int) error {
	if ok {
		var user User
		var orders []Order
		g, ctx := errgroup.WithContext(ctx) // want `task.Run2`
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
	for range ids {
		g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
		g.Go(func() error { return ping(ctx) })
		g.Go(func() error { return ping(ctx) })
		if err := g.Wait(); err != nil {
			return err
		}
	}
	return nil
}

type request struct{}

func (r *request) Context() context.Context { return context.Background() }

type T struct{}

func (t *T) Context() context.Context { return context.Background() }
func (t *T) Errorf(string, ...any)    {}
func (t *T) FailNow()                 {}

// A parent that is not a plain name; an err declared earlier in the block,
// not read again; the results in a var block with another variable; a
// closure that drops the value.
func handler(r *request, id int) (string, error) {
	n, err := loadCount(r.Context(), id)
	if err != nil {
		return "", err
	}
	var (
		user   User
		prefix = "user:"
		count  int
	)
	g, ctx := errgroup.WithContext(r.Context()) // want `task.Group in place`
	g.Go(func() error {
		var err error
		user, err = loadUser(ctx)
		return err
	})
	g.Go(func() error {
		var err error
		count, err = loadCount(ctx, n)
		return err
	})
	g.Go(func() error {
		_, err := loadOrders(ctx)
		return err
	})
	if err := g.Wait(); err != nil {
		return "", err
	}
	return fmt.Sprint(prefix, user, count), nil
}

// require.NoError of the wait is the check; context.Background() the
// parent.
func TestLoad(t *T) {
	var user User
	var orders []Order
	g, ctx := errgroup.WithContext(context.Background()) // want `task.Run2`
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
	require.NoError(t, g.Wait())
	fmt.Println(user, orders)
}

type Cache struct{}

// A CacheError is what describeCaches fails with once cachesErr is set
// (TestGoldenCompiles runs the fixed code).
type CacheError struct{ Name string }

func (e *CacheError) Error() string { return "cache " + e.Name }

var cachesErr error

func describeCaches(ctx context.Context) ([]Cache, error) { return nil, cachesErr }

// Closures that wrap and log the error keep doing so: with FirstError, the
// call returns the wrapped error as the closure returned it.
func wraps(ctx context.Context) ([]Cache, int, error) {
	var caches []Cache
	var count int
	g, gctx := errgroup.WithContext(ctx) // want `task.Run2`
	g.Go(func() error {
		var err error
		caches, err = describeCaches(gctx)
		if err != nil {
			return fmt.Errorf("describe caches: %w", err)
		}
		return nil
	})
	g.Go(func() error {
		n, err := loadCount(gctx, 1)
		if err != nil {
			fmt.Println("count failed:", err)
			return err
		}
		count = n
		return nil
	})
	if err := g.Wait(); err != nil {
		return nil, 0, err
	}
	return caches, count, nil
}

// An err declared earlier and read after the wait: := would overwrite it.
func errReadAfter(ctx context.Context) error {
	_, err := loadCount(ctx, 1)
	var user User
	var orders []Order
	g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
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
	return err
}

// The directive keeps a site as it is.
func kept(ctx context.Context) error {
	//taskvet:keep-errgroup the baseline of a benchmark
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error { return ping(ctx) })
	g.Go(func() error { return ping(ctx) })
	return g.Wait()
}

// The derived context reassigns a variable of the enclosing function
// literal, as in a cobra command's RunE.
func inFuncLit(ctx context.Context) func() error {
	return func() error {
		ctx := ctx
		g, ctx := errgroup.WithContext(ctx) // want `task.Group in place`
		g.Go(func() error { return ping(ctx) })
		g.Go(func() error { return ping(ctx) })
		return g.Wait()
	}
}

// Comments inside the closures stay in the functions of RunN; a fix that
// would drop one (a comment between the Go calls, varBlock) is not RunN.
func commented(ctx context.Context, id int) (User, int, error) {
	var user User
	var count int
	g, ctx := errgroup.WithContext(ctx) // want `this errgroup fan-out of 2 g.Go calls is task.Run2`
	g.Go(func() error {
		var err error
		// The user first: the page needs it.
		user, err = loadUser(ctx)
		if err != nil {
			return fmt.Errorf("user: %w", err) // wrapped for the log
		}
		return nil
	})
	g.Go(func() error {
		var err error
		count, err = loadCount(ctx, id) /* may be slow */
		if err != nil {
			return fmt.Errorf("count: %w", err)
		}
		return nil
	})
	if err := g.Wait(); err != nil {
		return User{}, 0, err
	}
	return user, count, nil
}
