package task

import "context"

// Await4..Await16 and Run5..Run16: the other arities of task.go's.

func Await4[T1, T2, T3, T4 any](ctx context.Context, t1 *Task[T1], t2 *Task[T2], t3 *Task[T3], t4 *Task[T4], opts ...Option) (T1, T2, T3, T4, error) {
	return t1.v, t2.v, t3.v, t4.v, nil
}
func Await5[T1, T2, T3, T4, T5 any](ctx context.Context, t1 *Task[T1], t2 *Task[T2], t3 *Task[T3], t4 *Task[T4], t5 *Task[T5], opts ...Option) (T1, T2, T3, T4, T5, error) {
	return t1.v, t2.v, t3.v, t4.v, t5.v, nil
}
func Await6[T1, T2, T3, T4, T5, T6 any](ctx context.Context, t1 *Task[T1], t2 *Task[T2], t3 *Task[T3], t4 *Task[T4], t5 *Task[T5], t6 *Task[T6], opts ...Option) (T1, T2, T3, T4, T5, T6, error) {
	return t1.v, t2.v, t3.v, t4.v, t5.v, t6.v, nil
}
func Await7[T1, T2, T3, T4, T5, T6, T7 any](ctx context.Context, t1 *Task[T1], t2 *Task[T2], t3 *Task[T3], t4 *Task[T4], t5 *Task[T5], t6 *Task[T6], t7 *Task[T7], opts ...Option) (T1, T2, T3, T4, T5, T6, T7, error) {
	return t1.v, t2.v, t3.v, t4.v, t5.v, t6.v, t7.v, nil
}
func Await8[T1, T2, T3, T4, T5, T6, T7, T8 any](ctx context.Context, t1 *Task[T1], t2 *Task[T2], t3 *Task[T3], t4 *Task[T4], t5 *Task[T5], t6 *Task[T6], t7 *Task[T7], t8 *Task[T8], opts ...Option) (T1, T2, T3, T4, T5, T6, T7, T8, error) {
	return t1.v, t2.v, t3.v, t4.v, t5.v, t6.v, t7.v, t8.v, nil
}
func Await9[T1, T2, T3, T4, T5, T6, T7, T8, T9 any](ctx context.Context, t1 *Task[T1], t2 *Task[T2], t3 *Task[T3], t4 *Task[T4], t5 *Task[T5], t6 *Task[T6], t7 *Task[T7], t8 *Task[T8], t9 *Task[T9], opts ...Option) (T1, T2, T3, T4, T5, T6, T7, T8, T9, error) {
	return t1.v, t2.v, t3.v, t4.v, t5.v, t6.v, t7.v, t8.v, t9.v, nil
}
func Await10[T1, T2, T3, T4, T5, T6, T7, T8, T9, T10 any](ctx context.Context, t1 *Task[T1], t2 *Task[T2], t3 *Task[T3], t4 *Task[T4], t5 *Task[T5], t6 *Task[T6], t7 *Task[T7], t8 *Task[T8], t9 *Task[T9], t10 *Task[T10], opts ...Option) (T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, error) {
	return t1.v, t2.v, t3.v, t4.v, t5.v, t6.v, t7.v, t8.v, t9.v, t10.v, nil
}
func Await11[T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11 any](ctx context.Context, t1 *Task[T1], t2 *Task[T2], t3 *Task[T3], t4 *Task[T4], t5 *Task[T5], t6 *Task[T6], t7 *Task[T7], t8 *Task[T8], t9 *Task[T9], t10 *Task[T10], t11 *Task[T11], opts ...Option) (T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, error) {
	return t1.v, t2.v, t3.v, t4.v, t5.v, t6.v, t7.v, t8.v, t9.v, t10.v, t11.v, nil
}
func Await12[T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12 any](ctx context.Context, t1 *Task[T1], t2 *Task[T2], t3 *Task[T3], t4 *Task[T4], t5 *Task[T5], t6 *Task[T6], t7 *Task[T7], t8 *Task[T8], t9 *Task[T9], t10 *Task[T10], t11 *Task[T11], t12 *Task[T12], opts ...Option) (T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, error) {
	return t1.v, t2.v, t3.v, t4.v, t5.v, t6.v, t7.v, t8.v, t9.v, t10.v, t11.v, t12.v, nil
}
func Await13[T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13 any](ctx context.Context, t1 *Task[T1], t2 *Task[T2], t3 *Task[T3], t4 *Task[T4], t5 *Task[T5], t6 *Task[T6], t7 *Task[T7], t8 *Task[T8], t9 *Task[T9], t10 *Task[T10], t11 *Task[T11], t12 *Task[T12], t13 *Task[T13], opts ...Option) (T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, error) {
	return t1.v, t2.v, t3.v, t4.v, t5.v, t6.v, t7.v, t8.v, t9.v, t10.v, t11.v, t12.v, t13.v, nil
}
func Await14[T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14 any](ctx context.Context, t1 *Task[T1], t2 *Task[T2], t3 *Task[T3], t4 *Task[T4], t5 *Task[T5], t6 *Task[T6], t7 *Task[T7], t8 *Task[T8], t9 *Task[T9], t10 *Task[T10], t11 *Task[T11], t12 *Task[T12], t13 *Task[T13], t14 *Task[T14], opts ...Option) (T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, error) {
	return t1.v, t2.v, t3.v, t4.v, t5.v, t6.v, t7.v, t8.v, t9.v, t10.v, t11.v, t12.v, t13.v, t14.v, nil
}
func Await15[T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15 any](ctx context.Context, t1 *Task[T1], t2 *Task[T2], t3 *Task[T3], t4 *Task[T4], t5 *Task[T5], t6 *Task[T6], t7 *Task[T7], t8 *Task[T8], t9 *Task[T9], t10 *Task[T10], t11 *Task[T11], t12 *Task[T12], t13 *Task[T13], t14 *Task[T14], t15 *Task[T15], opts ...Option) (T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15, error) {
	return t1.v, t2.v, t3.v, t4.v, t5.v, t6.v, t7.v, t8.v, t9.v, t10.v, t11.v, t12.v, t13.v, t14.v, t15.v, nil
}
func Await16[T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15, T16 any](ctx context.Context, t1 *Task[T1], t2 *Task[T2], t3 *Task[T3], t4 *Task[T4], t5 *Task[T5], t6 *Task[T6], t7 *Task[T7], t8 *Task[T8], t9 *Task[T9], t10 *Task[T10], t11 *Task[T11], t12 *Task[T12], t13 *Task[T13], t14 *Task[T14], t15 *Task[T15], t16 *Task[T16], opts ...Option) (T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15, T16, error) {
	return t1.v, t2.v, t3.v, t4.v, t5.v, t6.v, t7.v, t8.v, t9.v, t10.v, t11.v, t12.v, t13.v, t14.v, t15.v, t16.v, nil
}
func Run5[T1, T2, T3, T4, T5 any](ctx context.Context, f1 func(context.Context) (T1, error), f2 func(context.Context) (T2, error), f3 func(context.Context) (T3, error), f4 func(context.Context) (T4, error), f5 func(context.Context) (T5, error), opts ...Option) (T1, T2, T3, T4, T5, error) {
	var v1 T1
	var v2 T2
	var v3 T3
	var v4 T4
	var v5 T5
	return v1, v2, v3, v4, v5, nil
}
func Run6[T1, T2, T3, T4, T5, T6 any](ctx context.Context, f1 func(context.Context) (T1, error), f2 func(context.Context) (T2, error), f3 func(context.Context) (T3, error), f4 func(context.Context) (T4, error), f5 func(context.Context) (T5, error), f6 func(context.Context) (T6, error), opts ...Option) (T1, T2, T3, T4, T5, T6, error) {
	var v1 T1
	var v2 T2
	var v3 T3
	var v4 T4
	var v5 T5
	var v6 T6
	return v1, v2, v3, v4, v5, v6, nil
}
func Run7[T1, T2, T3, T4, T5, T6, T7 any](ctx context.Context, f1 func(context.Context) (T1, error), f2 func(context.Context) (T2, error), f3 func(context.Context) (T3, error), f4 func(context.Context) (T4, error), f5 func(context.Context) (T5, error), f6 func(context.Context) (T6, error), f7 func(context.Context) (T7, error), opts ...Option) (T1, T2, T3, T4, T5, T6, T7, error) {
	var v1 T1
	var v2 T2
	var v3 T3
	var v4 T4
	var v5 T5
	var v6 T6
	var v7 T7
	return v1, v2, v3, v4, v5, v6, v7, nil
}
func Run8[T1, T2, T3, T4, T5, T6, T7, T8 any](ctx context.Context, f1 func(context.Context) (T1, error), f2 func(context.Context) (T2, error), f3 func(context.Context) (T3, error), f4 func(context.Context) (T4, error), f5 func(context.Context) (T5, error), f6 func(context.Context) (T6, error), f7 func(context.Context) (T7, error), f8 func(context.Context) (T8, error), opts ...Option) (T1, T2, T3, T4, T5, T6, T7, T8, error) {
	var v1 T1
	var v2 T2
	var v3 T3
	var v4 T4
	var v5 T5
	var v6 T6
	var v7 T7
	var v8 T8
	return v1, v2, v3, v4, v5, v6, v7, v8, nil
}
func Run9[T1, T2, T3, T4, T5, T6, T7, T8, T9 any](ctx context.Context, f1 func(context.Context) (T1, error), f2 func(context.Context) (T2, error), f3 func(context.Context) (T3, error), f4 func(context.Context) (T4, error), f5 func(context.Context) (T5, error), f6 func(context.Context) (T6, error), f7 func(context.Context) (T7, error), f8 func(context.Context) (T8, error), f9 func(context.Context) (T9, error), opts ...Option) (T1, T2, T3, T4, T5, T6, T7, T8, T9, error) {
	var v1 T1
	var v2 T2
	var v3 T3
	var v4 T4
	var v5 T5
	var v6 T6
	var v7 T7
	var v8 T8
	var v9 T9
	return v1, v2, v3, v4, v5, v6, v7, v8, v9, nil
}
func Run10[T1, T2, T3, T4, T5, T6, T7, T8, T9, T10 any](ctx context.Context, f1 func(context.Context) (T1, error), f2 func(context.Context) (T2, error), f3 func(context.Context) (T3, error), f4 func(context.Context) (T4, error), f5 func(context.Context) (T5, error), f6 func(context.Context) (T6, error), f7 func(context.Context) (T7, error), f8 func(context.Context) (T8, error), f9 func(context.Context) (T9, error), f10 func(context.Context) (T10, error), opts ...Option) (T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, error) {
	var v1 T1
	var v2 T2
	var v3 T3
	var v4 T4
	var v5 T5
	var v6 T6
	var v7 T7
	var v8 T8
	var v9 T9
	var v10 T10
	return v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, nil
}
func Run11[T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11 any](ctx context.Context, f1 func(context.Context) (T1, error), f2 func(context.Context) (T2, error), f3 func(context.Context) (T3, error), f4 func(context.Context) (T4, error), f5 func(context.Context) (T5, error), f6 func(context.Context) (T6, error), f7 func(context.Context) (T7, error), f8 func(context.Context) (T8, error), f9 func(context.Context) (T9, error), f10 func(context.Context) (T10, error), f11 func(context.Context) (T11, error), opts ...Option) (T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, error) {
	var v1 T1
	var v2 T2
	var v3 T3
	var v4 T4
	var v5 T5
	var v6 T6
	var v7 T7
	var v8 T8
	var v9 T9
	var v10 T10
	var v11 T11
	return v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, nil
}
func Run12[T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12 any](ctx context.Context, f1 func(context.Context) (T1, error), f2 func(context.Context) (T2, error), f3 func(context.Context) (T3, error), f4 func(context.Context) (T4, error), f5 func(context.Context) (T5, error), f6 func(context.Context) (T6, error), f7 func(context.Context) (T7, error), f8 func(context.Context) (T8, error), f9 func(context.Context) (T9, error), f10 func(context.Context) (T10, error), f11 func(context.Context) (T11, error), f12 func(context.Context) (T12, error), opts ...Option) (T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, error) {
	var v1 T1
	var v2 T2
	var v3 T3
	var v4 T4
	var v5 T5
	var v6 T6
	var v7 T7
	var v8 T8
	var v9 T9
	var v10 T10
	var v11 T11
	var v12 T12
	return v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, nil
}
func Run13[T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13 any](ctx context.Context, f1 func(context.Context) (T1, error), f2 func(context.Context) (T2, error), f3 func(context.Context) (T3, error), f4 func(context.Context) (T4, error), f5 func(context.Context) (T5, error), f6 func(context.Context) (T6, error), f7 func(context.Context) (T7, error), f8 func(context.Context) (T8, error), f9 func(context.Context) (T9, error), f10 func(context.Context) (T10, error), f11 func(context.Context) (T11, error), f12 func(context.Context) (T12, error), f13 func(context.Context) (T13, error), opts ...Option) (T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, error) {
	var v1 T1
	var v2 T2
	var v3 T3
	var v4 T4
	var v5 T5
	var v6 T6
	var v7 T7
	var v8 T8
	var v9 T9
	var v10 T10
	var v11 T11
	var v12 T12
	var v13 T13
	return v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, nil
}
func Run14[T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14 any](ctx context.Context, f1 func(context.Context) (T1, error), f2 func(context.Context) (T2, error), f3 func(context.Context) (T3, error), f4 func(context.Context) (T4, error), f5 func(context.Context) (T5, error), f6 func(context.Context) (T6, error), f7 func(context.Context) (T7, error), f8 func(context.Context) (T8, error), f9 func(context.Context) (T9, error), f10 func(context.Context) (T10, error), f11 func(context.Context) (T11, error), f12 func(context.Context) (T12, error), f13 func(context.Context) (T13, error), f14 func(context.Context) (T14, error), opts ...Option) (T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, error) {
	var v1 T1
	var v2 T2
	var v3 T3
	var v4 T4
	var v5 T5
	var v6 T6
	var v7 T7
	var v8 T8
	var v9 T9
	var v10 T10
	var v11 T11
	var v12 T12
	var v13 T13
	var v14 T14
	return v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, nil
}
func Run15[T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15 any](ctx context.Context, f1 func(context.Context) (T1, error), f2 func(context.Context) (T2, error), f3 func(context.Context) (T3, error), f4 func(context.Context) (T4, error), f5 func(context.Context) (T5, error), f6 func(context.Context) (T6, error), f7 func(context.Context) (T7, error), f8 func(context.Context) (T8, error), f9 func(context.Context) (T9, error), f10 func(context.Context) (T10, error), f11 func(context.Context) (T11, error), f12 func(context.Context) (T12, error), f13 func(context.Context) (T13, error), f14 func(context.Context) (T14, error), f15 func(context.Context) (T15, error), opts ...Option) (T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15, error) {
	var v1 T1
	var v2 T2
	var v3 T3
	var v4 T4
	var v5 T5
	var v6 T6
	var v7 T7
	var v8 T8
	var v9 T9
	var v10 T10
	var v11 T11
	var v12 T12
	var v13 T13
	var v14 T14
	var v15 T15
	return v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15, nil
}
func Run16[T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15, T16 any](ctx context.Context, f1 func(context.Context) (T1, error), f2 func(context.Context) (T2, error), f3 func(context.Context) (T3, error), f4 func(context.Context) (T4, error), f5 func(context.Context) (T5, error), f6 func(context.Context) (T6, error), f7 func(context.Context) (T7, error), f8 func(context.Context) (T8, error), f9 func(context.Context) (T9, error), f10 func(context.Context) (T10, error), f11 func(context.Context) (T11, error), f12 func(context.Context) (T12, error), f13 func(context.Context) (T13, error), f14 func(context.Context) (T14, error), f15 func(context.Context) (T15, error), f16 func(context.Context) (T16, error), opts ...Option) (T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15, T16, error) {
	var v1 T1
	var v2 T2
	var v3 T3
	var v4 T4
	var v5 T5
	var v6 T6
	var v7 T7
	var v8 T8
	var v9 T9
	var v10 T10
	var v11 T11
	var v12 T12
	var v13 T13
	var v14 T14
	var v15 T15
	var v16 T16
	return v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15, v16, nil
}
