#pragma once
/// @file
/// How a plan runs: every step lowers onto the one kernel (exec/).
/// * `from<T>`: the identity match set over T's rows.
/// * a join: the joined side is arranged by the canonical composite key of
///   its key pairs (plan/join_keys.hpp), right-only conjuncts leaving rows
///   out; the match set is probed row by row in order (`exec::probe`), the
///   residual conjuncts deciding each candidate; no key pair at all runs
///   `exec::nested_loop`. Inner/left joins append a position column, semi/anti
///   keep the rows that (do not) match.
/// * `where`: keeps the match rows whose condition is true.
/// * `select` / no select: a lazy projection over the final match set.
/// * `run` pipelines when it can (`pipelined_state`, at the end): joins'
///   arrangements are built and checked up front, then the view pulls the
///   first table in chunks through every step, so the match set stays small.
/// * `group_by | aggregate`: an arrangement over the match rows (groups in
///   order of first appearance), then one pass per aggregate: O(n).
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include <joinery/core/inline.hpp>
#include <joinery/core/key.hpp>
#include <joinery/core/type_list.hpp>
#include <joinery/exec/arrangement.hpp>
#include <joinery/exec/built_on_demand.hpp>
#include <joinery/exec/equi_join.hpp>
#include <joinery/exec/group_by.hpp>
#include <joinery/exec/match_set.hpp>
#include <joinery/exec/prefetch_build.hpp>
#include <joinery/exec/threads.hpp>
#include <joinery/expr/eval.hpp>
#include <joinery/expr/expression.hpp>
#include <joinery/plan/compose.hpp>
#include <joinery/plan/env.hpp>
#include <joinery/plan/cardinality.hpp>
#include <joinery/expr/column_ref.hpp>
#include <joinery/plan/group_by.hpp>
#include <joinery/plan/join.hpp>
#include <joinery/plan/join_keys.hpp>
#include <joinery/plan/plan.hpp>
#include <joinery/plan/result.hpp>
#include <joinery/plan/scope.hpp>
#include <joinery/plan/where.hpp>
#include <joinery/schema/relation.hpp>

namespace joinery::detail {

template <auto Arr, class Seq = std::make_index_sequence<Arr.size()>>
struct seq_of;
template <auto Arr, std::size_t... K>
struct seq_of<Arr, std::index_sequence<K...>> {
  using type = std::index_sequence<Arr[K]...>;
};

/// True when every conjunct listed in the sequence holds in `env`.
template <class Tuple, class Env, std::size_t... Q>
bool all_hold(const Tuple& conj, const Env& env, std::index_sequence<Q...>) {
  return (holds(eval_expr(std::get<Q>(conj), env)) && ...);
}

template <class C, conjunct_role Role>
struct pair_sides {
  static constexpr bool left_first = Role == conjunct_role::key_left_right;
  using left_t = std::conditional_t<left_first, typename binary_parts<C>::lhs, typename binary_parts<C>::rhs>;
  using right_t = std::conditional_t<left_first, typename binary_parts<C>::rhs, typename binary_parts<C>::lhs>;
  template <bool Left>
  static constexpr const auto& side(const C& c) {
    if constexpr (Left == left_first) return c.lhs;
    else return c.rhs;
  }
};

/// The composite key of a join: one canonical component per key pair.
template <class CT, auto Roles, auto KeyIdx, class LEnv, class REnv>
struct join_key {
  template <std::size_t k>
  using sides = pair_sides<std::tuple_element_t<KeyIdx[k], CT>, Roles[KeyIdx[k]]>;
  template <std::size_t k>
  using common = key_common_t<eval_result_t<typename sides<k>::left_t, LEnv>,
                              eval_result_t<typename sides<k>::right_t, REnv>>;
  template <std::size_t k>
  using component = canonical_key_t<common<k>>;

  template <std::size_t... k>
  static auto key_type_of(std::index_sequence<k...>)
      -> std::conditional_t<sizeof...(k) == 1, component<0>, std::tuple<component<k>...>>;
  using seq = std::make_index_sequence<KeyIdx.size()>;
  using type = decltype(key_type_of(seq{}));

  /// The key of one side's row (`Left`: a left row), empty when a component is NULL.
  template <bool Left, class Env, std::size_t... k>
  static std::optional<type> make(const CT& conj, const Env& env, std::index_sequence<k...>) {
    if constexpr (sizeof...(k) == 1) {
      return to_key_component<common<0>>(eval_expr(sides<0>::template side<Left>(std::get<KeyIdx[0]>(conj)), env));
    } else {
      std::tuple<std::optional<component<k>>...> parts{
          to_key_component<common<k>>(eval_expr(sides<k>::template side<Left>(std::get<KeyIdx[k]>(conj)), env))...};
      if (!(std::get<k>(parts).has_value() && ...)) return std::nullopt;
      return type(std::move(*std::get<k>(parts))...);
    }
  }
};

constexpr exec::join_kind kernel_kind(join_op k) {
  switch (k) {
    case join_op::inner: return exec::join_kind::inner;
    case join_op::left: return exec::join_kind::left;
    case join_op::semi: return exec::join_kind::semi;
    case join_op::anti: return exec::join_kind::anti;
  }
  return exec::join_kind::inner;
}

inline void add_work(exec::work_counters& to, const exec::work_counters& w) {
  to.inserts += w.inserts;
  to.probes += w.probes;
  to.comparisons += w.comparisons;
  to.emitted += w.emitted;
}

template <class S>
constexpr std::string_view table_name_if_column() {
  if constexpr (is_column_ref_v<S>) return S::table::name.view();
  else return {};
}

/// The table of a join's first plain left key column (`fallback` if none).
template <class Key, std::size_t... k>
constexpr std::string_view first_plain_left_table(std::string_view fallback, std::index_sequence<k...>) {
  const std::string_view names[] = {table_name_if_column<typename Key::template sides<k>::left_t>()..., fallback};
  for (std::string_view n : names)
    if (!n.empty()) return n;
  return fallback;
}

/// Everything a join step needs to know about its condition, from types.
template <class P, std::size_t I, class Src>
struct join_plan {
  using step = std::tuple_element_t<I, decltype(std::declval<P>().steps)>;
  using T = typename step::table;
  using left_bindings = scope_bindings_t<P, I>;
  using left_tables = scope_tables_t<P, I>;
  using left_env = ms_env<left_bindings, Src>;
  using rel = std::remove_cvref_t<decltype(std::declval<const Src&>().template get<T>())>;
  using right_env = table_env<T, rel>;
  using pair = pair_env<left_env, T, rel>;
  using conj = conjuncts_t<typename step::condition>;
  static constexpr std::size_t width = left_bindings::size;
  static constexpr std::size_t n_conj = std::tuple_size_v<conj>;
  static constexpr auto roles = join_roles<conj, left_tables, T>::roles;
  static constexpr std::size_t n_keys = count_where(roles, is_key_role);
  static constexpr auto key_idx = indices_where<n_keys>(roles, is_key_role);
  static constexpr auto is_left_only = [](conjunct_role r) { return r == conjunct_role::left_only; };
  static constexpr auto is_right_only = [](conjunct_role r) { return r == conjunct_role::right_only; };
  static constexpr auto is_residual = [](conjunct_role r) { return r == conjunct_role::residual; };
  using left_filters = typename seq_of<indices_where<count_where(roles, is_left_only)>(roles, is_left_only)>::type;
  using right_filters = typename seq_of<indices_where<count_where(roles, is_right_only)>(roles, is_right_only)>::type;
  using residuals = typename seq_of<indices_where<count_where(roles, is_residual)>(roles, is_residual)>::type;
  using key = join_key<conj, roles, key_idx, left_env, right_env>;
  static constexpr exec::join_kind kind = kernel_kind(step::kind);
  static constexpr bool binds = step::kind == join_op::inner || step::kind == join_op::left;
  /// The left table a one_to_one check names: that of the first plain left key column.
  static constexpr std::string_view left_table_name =
      first_plain_left_table<key>(P::from_table::name.view(), std::make_index_sequence<n_keys>{});
};

/// `name=value ...` of one side's key components at a row (for messages).
template <bool Left, class JP, class Conj, class Env, std::size_t... k>
std::string describe_key(const Conj& conj, const Env& env, std::index_sequence<k...>) {
  std::string out;
  auto one = [&](std::size_t idx, const auto& side) {
    using S = std::remove_cvref_t<decltype(side)>;
    if (!out.empty()) out += ' ';
    if constexpr (is_column_ref_v<S>) out += S::name.view();
    else out += "key" + std::to_string(idx);
    out += '=';
    out += format_value(eval_expr(side, env));
  };
  (one(k, JP::key::template sides<k>::template side<Left>(std::get<JP::key_idx[k]>(conj))), ...);
  return out;
}

template <class P, std::size_t J, class Src>
void push_step_version(std::vector<std::uint64_t>& v, const Src& src) {
  using S = std::tuple_element_t<J, decltype(std::declval<P>().steps)>;
  if constexpr (!std::is_void_v<typename step_traits<S>::table>)
    v.push_back(src.template get<typename step_traits<S>::table>().version());
}
template <class P, class Src, std::size_t... J>
void push_step_versions(std::vector<std::uint64_t>& v, const Src& src, std::index_sequence<J...>) {
  (push_step_version<P, J>(v, src), ...);
}

/// The versions of the relations the left side of step `I` is read from.
template <class P, std::size_t I, class Src>
std::vector<std::uint64_t> left_versions(const Src& src) {
  std::vector<std::uint64_t> v{src.template get<typename P::from_table>().version()};
  push_step_versions<P>(v, src, std::make_index_sequence<I>{});
  return v;
}

/// The data check of an annotated join (plan/cardinality.hpp): right side on
/// the join's own arrangement, left side (one_to_one) by one grouping pass.
template <class P, std::size_t I, class JP, class Arr, class Src, std::size_t N, class Conj, class LeftKey>
void verify_join(exec_context& ctx, const Arr& arr, const Src& src, const exec::match_set<N>& ms, const Conj& conj,
                 const LeftKey& left_key) {
  using step = typename JP::step;
  using E = typename step::expect_type;
  using T = typename JP::T;
  using kseq = typename JP::key::seq;
  const std::string label = join_label(P::name.view(), step::kind, T::name.view());
  const auto& right = src.template get<T>();
  const verified_join* before =
      ctx.previously != nullptr && ctx.previously->size() > I ? &(*ctx.previously)[I] : nullptr;
  if (ctx.verified.size() < P::step_count) ctx.verified.resize(P::step_count);
  verified_join& now = ctx.verified[I];

  const bool right_cached = before != nullptr && before->right_version == right.version();
  if (!right_cached) {
    require_unique(arr, label, E::name, T::name.view(), [&](std::size_t j) {
      return describe_key<false, JP>(conj, typename JP::right_env{&right, j}, kseq{});
    });
  }
  now.right_version = right.version();
  std::string line = "ok " + label + ": " + std::string(E::name) + " (" + std::to_string(arr.keyed_rows()) +
                     " right rows, 0 duplicate key groups" + (right_cached ? ", cached" : "");
  if constexpr (E::check_left) {
    std::vector<std::uint64_t> versions = left_versions<P, I>(src);
    const bool left_cached = before != nullptr && before->left_versions == versions;
    std::size_t left_rows = left_cached ? before->left_rows : 0;
    if (!left_cached) {
      exec::arrangement<typename JP::key::type> larr;
      larr.build_groups(ms.rows, left_key);
      require_unique(larr, label, E::name, JP::left_table_name, [&](std::size_t i) {
        return describe_key<true, JP>(conj, typename JP::left_env{&src, &ms, i}, kseq{});
      });
      left_rows = larr.keyed_rows();
    }
    now.left_versions = std::move(versions);
    now.left_rows = left_rows;
    line += "; " + std::to_string(left_rows) + " left rows, 0 duplicate key groups" + (left_cached ? ", cached" : "");
  }
  line += ")";
  ctx.report.push_back(std::move(line));
}

/// The arrangement a keyed join step builds over its right side.
template <class P, std::size_t I, class Src>
using join_index_t = exec::arrangement<typename join_plan<P, I, Src>::key::type>;

/// Builds join step `I`'s arrangement: the right side by the composite key,
/// right-only conjuncts leaving rows out.
template <class P, std::size_t I, class Src>
join_index_t<P, I, Src> build_join_index(const P& p, const Src& src) {
  using JP = join_plan<P, I, Src>;
  using key_t = typename JP::key::type;
  const auto& right = src.template get<typename JP::T>();
  const auto conj = conjuncts(std::get<I>(p.steps).on);
  join_index_t<P, I, Src> arr;
  arr.build(right.size(), [&](std::size_t j) -> std::optional<key_t> {
    const typename JP::right_env env{&right, j};
    if (!all_hold(conj, env, typename JP::right_filters{})) return std::nullopt;
    return JP::key::template make<false>(conj, env, typename JP::key::seq{});
  });
  return arr;
}

/// A keyed join with no residual condition whose every probe row has at most
/// one match (a build of distinct keys; or semi/anti, which only ask whether
/// one exists): the kernel writes one build position (or `no_row`) per probe
/// row into a flat array, and the output is cut from it in one pass. Same
/// rows, same order as the general emit path.
template <exec::join_kind K, std::size_t N, class Arr, class KeyAt>
auto join_at_most_one(const Arr& arr, const exec::match_set<N>& ms, KeyAt& left_key, exec::work_counters& work) {
  constexpr bool binds = K == exec::join_kind::inner || K == exec::join_kind::left;
  exec::position_column match(ms.rows);
  std::uint32_t* const out = match.data();
  arr.template probe_rows<true>(
      0, ms.rows, left_key,
      [out](std::size_t i, std::span<const exec::row_pos> found) JOINERY_DETAIL_ALWAYS_INLINE {
        out[i] = found.empty() ? exec::no_row : found[0];
      },
      work);
  // Counted apart: a count in the probe loop would wait on each lookup that
  // is resolved without a branch (see arrangement::resolve_unique). A left
  // join keeps every row and needs no count.
  std::size_t hits = 0;
  if constexpr (K != exec::join_kind::left)
    for (std::size_t i = 0; i < ms.rows; ++i) hits += out[i] != exec::no_row;
  // Rows kept when not all are: their positions in `ms`.
  auto kept = [&](bool want_hit) {
    const std::size_t count = want_hit ? hits : ms.rows - hits;
    // Branch-free (which rows are kept is often a coin toss, half the keys
    // missing): every row is written, and the cursor moves past the kept
    // ones; so one slot more than the kept rows.
    exec::position_column keep(count + 1);
    std::uint32_t* k = keep.data();
    for (std::size_t i = 0; i < ms.rows; ++i) {
      *k = static_cast<std::uint32_t>(i);
      k += (out[i] != exec::no_row) == want_hit;
    }
    keep.resize(count);
    return keep;
  };
  if constexpr (binds) {
    exec::match_set<N + 1> res;
    if (K == exec::join_kind::left || hits == ms.rows) {
      // Every probe row once, in place: the input columns as they are.
      for (std::size_t b = 0; b < N; ++b) res.pos[b] = ms.pos[b];
      res.identity = ms.identity;
      res.base = ms.base;
      res.rows = ms.rows;
      res.pos[N] = std::move(match);
      return res;
    } else {
      const exec::position_column keep = kept(true);
      exec::match_set<N> in = ms.gather(keep);
      for (std::size_t b = 0; b < N; ++b) res.pos[b] = std::move(in.pos[b]);
      res.rows = keep.size();
      auto& col = res.pos[N];
      col.resize(keep.size());
      for (std::size_t r = 0; r < keep.size(); ++r) col[r] = out[keep[r]];
      return res;
    }
  } else {
    constexpr bool want_hit = K == exec::join_kind::semi;
    if ((want_hit ? hits : ms.rows - hits) == ms.rows) return ms;  // every row kept
    return ms.gather(kept(want_hit));
  }
}

/// One join step over match set `ms`. `prebuilt`: the step's arrangement,
/// built (and verified) once up front by a pipelined run, or null (build it
/// here). `Chunk`: a pipelined run's chunk, probed with the emit inlined and
/// without touching the shared arrangement's counters.
template <class P, std::size_t I, bool Chunk = false, class Src, std::size_t N, class Arr = void>
auto apply_join(const P& p, const Src& src, const exec::match_set<N>& ms, exec_context& ctx,
                const Arr* prebuilt = nullptr) {
  (void)prebuilt;
  (void)ctx;
  using JP = join_plan<P, I, Src>;
  using T = typename JP::T;
  using left_env = typename JP::left_env;
  const auto& step = std::get<I>(p.steps);
  const auto& right = src.template get<T>();
  const auto conj = conjuncts(step.on);

  using out_t = std::conditional_t<JP::binds, exec::match_set<N + 1>, exec::match_set<N>>;
  // Inner/left: one writer per output column; semi/anti: the kept match rows.
  constexpr std::size_t n_writers = JP::binds ? N + 1 : 1;
  // While every emitted row so far is the next left row, column 0 of an
  // identity input stays the identity and is not stored (a many-to-one join
  // of the first table writes only the joined table's positions).
  bool identity = ms.identity && JP::binds;
  std::array<exec::position_writer, n_writers> w;
  // Sized for one output row per input row (the emit paths below; join_at_most_one needs none).
  auto size_writers = [&] {
    for (std::size_t b = identity ? 1 : 0; b < n_writers; ++b) w[b] = exec::position_writer(ms.rows);
  };
  std::size_t emitted = 0;
  // Called once per output row from the kernel's probe loop: keep it inlined.
  auto emit = [&](std::size_t i, std::size_t j) JOINERY_DETAIL_ALWAYS_INLINE {
    if constexpr (JP::binds) {
      if (identity) {
        if (i != emitted) [[unlikely]] {  // the first repeated or skipped row: store column 0 from here on
          identity = false;
          w[0] = exec::position_writer(ms.rows);
          for (std::size_t r = 0; r < emitted; ++r) w[0].put(ms.at(0, r));
          w[0].put(ms.at(0, i));
        }
      } else {
        w[0].put(ms.at(0, i));
      }
      [&]<std::size_t... b>(std::index_sequence<b...>) {
        (w[b + 1].put(ms.at(b + 1, i)), ...);
      }(std::make_index_sequence<N - 1>{});
      w[N].put(j == exec::unmatched ? exec::no_row : static_cast<std::uint32_t>(j));
      ++emitted;
    } else {
      w[0].put(static_cast<std::uint32_t>(i));
    }
  };

  if constexpr (JP::n_keys == 0) {
    // No equality key: the nested loop the user wrote (the one quadratic path).
    auto accept = [&](std::size_t i, std::size_t j) {
      const typename JP::pair env{left_env{&src, &ms, i}, &right, j};
      return all_hold(conj, env, std::make_index_sequence<JP::n_conj>{});
    };
    size_writers();
    exec::nested_loop<JP::kind>(ms.rows, right.size(), accept, emit);
    ctx.nested_pairs += static_cast<std::uint64_t>(ms.rows) * right.size();
  } else {
    using key_t = typename JP::key::type;
    using kseq = typename JP::key::seq;
    auto left_key = [&](std::size_t i) -> std::optional<key_t> {
      const left_env env{&src, &ms, i};
      if (!all_hold(conj, env, typename JP::left_filters{})) return std::nullopt;
      return JP::key::template make<true>(conj, env, kseq{});
    };
    auto accept = [&](std::size_t i, std::size_t j) {
      if constexpr (std::is_same_v<typename JP::residuals, std::index_sequence<>>) {
        return true;
      } else {
        const typename JP::pair env{left_env{&src, &ms, i}, &right, j};
        return all_hold(conj, env, typename JP::residuals{});
      }
    };
    constexpr bool no_residuals = std::is_same_v<typename JP::residuals, std::index_sequence<>>;
    // Whether each probe row has at most one match to emit (see join_at_most_one).
    auto at_most_one = [](const auto& arr) { return no_residuals && (!JP::binds || arr.unique()); };
    // The arrangement: built once up front by a pipelined run, else built
    // (and checked) here.
    std::conditional_t<Chunk, std::monostate, join_index_t<P, I, Src>> own;
    const join_index_t<P, I, Src>* arr = nullptr;
    if constexpr (Chunk) {
      arr = prebuilt;
    } else {
      own = build_join_index<P, I>(p, src);
      if constexpr (std::remove_cvref_t<decltype(step)>::expect_type::annotated) {
        verify_join<P, I, JP>(ctx, own, src, ms, conj, left_key);
      }
      arr = &own;
    }
    // Work goes to this call's own arrangement only: a prebuilt one is shared
    // by chunks that may be probed on several threads.
    exec::work_counters work;
    auto account = [&] {
      if constexpr (!Chunk) {
        arr->add_work(work);
        add_work(ctx.work, arr->counters());
      }
    };
    if constexpr (no_residuals) {
      if (at_most_one(*arr)) {
        auto out = join_at_most_one<JP::kind>(*arr, ms, left_key, work);
        account();
        return out;
      }
    }
    // The kernel's batched probe and per-row emission (exec::probe), inlined.
    size_writers();
    arr->probe_rows(
        0, ms.rows, left_key,
        [&](std::size_t i, std::span<const exec::row_pos> candidates) JOINERY_DETAIL_ALWAYS_INLINE {
          exec::detail::emit_row<JP::kind>(i, candidates, accept, emit);
        },
        work);
    account();
  }

  if constexpr (JP::binds) {
    out_t out;
    for (std::size_t b = identity ? 1 : 0; b < n_writers; ++b) out.pos[b] = w[b].take();
    out.rows = emitted;
    out.identity = identity;
    out.base = identity ? ms.base : 0;
    return out;
  } else {
    return ms.gather(w[0].take());
  }
}

/// One `where` step over match set `ms`.
template <class P, std::size_t I, class Src, std::size_t N>
exec::match_set<N> apply_where(const P& p, const Src& src, const exec::match_set<N>& ms) {
  using env = ms_env<scope_bindings_t<P, I>, Src>;
  const auto& cond = std::get<I>(p.steps).cond;
  exec::position_writer keep(ms.rows);
  for (std::size_t r = 0; r < ms.rows; ++r)
    if (holds(eval_expr(cond, env{&src, &ms, r}))) keep.put(static_cast<std::uint32_t>(r));
  return ms.gather(keep.take());
}

template <class S>
struct is_join_step : std::false_type {};
template <join_op K, class T, class C, class E>
struct is_join_step<join_step<K, T, C, E>> : std::true_type {};
template <class S>
struct is_where_step : std::false_type {};
template <class C>
struct is_where_step<where_step<C>> : std::true_type {};

/// Runs the row steps (joins, wheres) from step `I` on; stops at the final stage.
template <class P, std::size_t I, class Src, std::size_t N>
auto run_row_steps(const P& p, const Src& src, exec::match_set<N>&& ms, exec_context& ctx) {
  if constexpr (I == P::step_count) {
    return std::move(ms);
  } else {
    using S = std::tuple_element_t<I, decltype(p.steps)>;
    if constexpr (is_join_step<S>::value) {
      return run_row_steps<P, I + 1>(p, src, apply_join<P, I>(p, src, ms, ctx), ctx);
    } else if constexpr (is_where_step<S>::value) {
      return run_row_steps<P, I + 1>(p, src, apply_where<P, I>(p, src, ms), ctx);
    } else {
      return std::move(ms);
    }
  }
}

constexpr std::size_t find_name(std::span<const std::string_view> names, std::string_view n) {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == n) return i;
  return npos;
}

/// A result row of a projection plan, as the row position of every bound
/// table: self-contained (valid as long as the sources), so rows read while
/// a pipelined view streams its chunks stay readable afterwards.
template <std::size_t N>
using row_positions = std::array<std::uint32_t, N>;

/// What a view's iterator keeps of the match set it reads: the column
/// pointers themselves, so reading a row's positions is one load from a
/// register instead of a walk through the match set (which the loop's
/// refill call forces compilers to redo on every row).
template <std::size_t N>
struct match_set_reader {
  std::array<const std::uint32_t*, N> col{};
  bool identity = false;
  std::uint32_t base = 0;

  explicit match_set_reader(const exec::match_set<N>& ms) noexcept : identity(ms.identity), base(ms.base) {
    for (std::size_t b = 0; b < N; ++b) col[b] = ms.pos[b].data();
  }
  match_set_reader() = default;

  [[nodiscard]] row_positions<N> at(std::size_t r) const noexcept {
    row_positions<N> out;
    for (std::size_t b = 0; b < N; ++b)
      out[b] = b == 0 && identity ? base + static_cast<std::uint32_t>(r) : col[b][r];
    return out;
  }
};

template <std::size_t N>
row_positions<N> positions_at(const exec::match_set<N>& ms, std::size_t r) noexcept {
  return match_set_reader<N>(ms).at(r);
}

/// A result row (`row_positions`) whose columns are the bound tables `Bindings`.
template <class Bindings, class Src>
struct positions_env {
  const Src* src;
  const row_positions<Bindings::size>* pos;

  template <class T, fixed_string Name>
  [[nodiscard]] decltype(auto) read() const {
    using b = binding_of<T, Bindings>;
    return read_column<T, Name, b::type::nullable>(src->template get<T>(), (*pos)[b::index]);
  }
};

/// True when evaluating `E` cannot throw (no user function): such conditions
/// may run while a pipelined view is read instead of inside `run`.
template <class E>
struct cannot_throw : std::false_type {};
template <class V>
struct cannot_throw<literal<V>> : std::true_type {};
template <class T, fixed_string N>
struct cannot_throw<column_ref<T, N>> : std::true_type {};
template <class Op, class L, class R>
struct cannot_throw<binary<Op, L, R>> : std::bool_constant<cannot_throw<L>::value && cannot_throw<R>::value> {};
template <class Op, class E>
struct cannot_throw<unary<Op, E>> : cannot_throw<E> {};

/// What a projection plan's rows evaluate: the items over the bound tables.
template <class P, class Src, class Items = typename final_shape<P>::items>
struct projection_items_of;
template <class P, class Src, class... Items>
struct projection_items_of<P, Src, type_list<Items...>> {
  using bindings = plan_bindings_t<P>;
  static constexpr std::size_t width = bindings::size;
  using env = ms_env<bindings, Src>;
  using table_type = result_table_t<P>;
  using row_ref = row_positions<width>;
  using items_t = std::tuple<Items...>;
  static constexpr std::array<std::string_view, sizeof...(Items)> names{Items::name.view()...};

  template <fixed_string Name>
  [[nodiscard]] static decltype(auto) get(const items_t& items, const Src& src, const row_ref& ref) {
    constexpr std::size_t i = find_name(names, Name.view());
    if constexpr (i == npos) {
      (void)unknown_column_in<table_type, spelled<Name>>{};
      return 0;
    } else {
      return eval_expr(std::get<i>(items).value, positions_env<bindings, Src>{&src, &ref});
    }
  }

  /// Item k's values as a loop over the rows of `ms` gathers them: when the
  /// item is a column of a joined table (not the first, read in order) of
  /// at least `exec::prefetch_min_column_bytes`, its values and positions,
  /// so the loop can prefetch them a stretch of rows ahead; else nothing
  /// (below that size the values stay in cache, and prefetching only costs).
  struct gathered_values {
    const char* values = nullptr;  // null: nothing to prefetch
    std::size_t stride = 0;
    const std::uint32_t* pos = nullptr;
    static constexpr std::size_t ahead = 16;
    /// The address of row `r`'s value; a left join's missing row gives the
    /// first value's (no branch on a coin toss).
    [[nodiscard]] const char* at(std::size_t r) const noexcept {
      return values + stride * (pos[r] & (0U - static_cast<std::uint32_t>(pos[r] != exec::no_row)));
    }
    void prefetch(std::size_t r) const noexcept { exec::detail::prefetch_read(at(r)); }
  };
  template <std::size_t k>
  [[nodiscard]] static gathered_values gathered(const Src& src, const exec::match_set<width>& ms) noexcept {
    using X = typename std::tuple_element_t<k, items_t>::value_type;
    if constexpr (is_column_ref<X>::value) {
      using T = typename X::table;
      using b = binding_of<T, bindings>;
      if constexpr (b::index > 0) {
        constexpr std::size_t c = column_index<T>(X::name.view());
        const auto& v = src.template get<T>().template column_at<c>();
        if (v.size() * sizeof(v[0]) >= exec::prefetch_min_column_bytes)
          return {reinterpret_cast<const char*>(v.data()), sizeof(v[0]), ms.pos[b::index].data()};
      }
    }
    return {};
  }

  /// Prefetches, for every item that is a column of a joined table (not the
  /// first, which is read in order), its values at the positions of `ms`, so
  /// reading the chunk's rows does not wait on each random gather. No effect
  /// on values.
  static void prefetch_rows(const Src& src, const exec::match_set<width>& ms) noexcept {
    [&]<std::size_t... k>(std::index_sequence<k...>) {
      (
          [&] {
            const gathered_values g = gathered<k>(src, ms);
            if (g.values)
              for (std::size_t r = 0; r < ms.rows; ++r) exec::detail::prefetch_read_outer(g.at(r));
          }(),
          ...);
    }(std::index_sequence_for<Items...>{});
  }

  /// Every row of `ms`, evaluated into the result relation's columns; on
  /// up to `t.count` threads (contiguous row ranges, every column) when no
  /// item calls a user function and every column type can be made first and
  /// assigned after.
  [[nodiscard]] static relation<table_type> materialize(const items_t& items, const Src& src,
                                                        const exec::match_set<width>& ms,
                                                        exec::threads t = exec::threads{}) {
    relation<table_type> out;
    if constexpr (parallel_columns) {
      const std::size_t parts = exec::detail::part_count(t, ms.rows);
      if (parts > 1) {
        [&]<std::size_t... k>(std::index_sequence<k...>) {
          std::tuple<std::vector<column_type<k>>...> cols;
          ((reserve_output(std::get<k>(cols), ms.rows), std::get<k>(cols).resize(ms.rows)), ...);
          auto fill = [&](std::size_t, std::size_t b, std::size_t e) {
            (fill_column<k>(std::get<k>(cols), items, src, ms, b, e), ...);
          };
          exec::detail::run_parts(parts, ms.rows, fill);
          out.assign_columns(std::move(std::get<k>(cols))...);
        }(std::index_sequence_for<Items...>{});
        return out;
      }
    }
    [&]<std::size_t... k>(std::index_sequence<k...>) {
      out.assign_columns(column<k>(items, src, ms)...);
    }(std::index_sequence_for<Items...>{});
    return out;
  }

  template <std::size_t k>
  using column_type = typename detail::column_at<typename table_type::columns, k>::type::type;
  static constexpr bool parallel_columns = []<std::size_t... k>(std::index_sequence<k...>) {
    return ((cannot_throw<typename Items::value_type>::value &&
             std::is_nothrow_default_constructible_v<column_type<k>> &&
             std::is_nothrow_move_assignable_v<column_type<k>>) &&
            ...);
  }(std::index_sequence_for<Items...>{});

  template <std::size_t k>
  static void fill_column(std::vector<column_type<k>>& v, const items_t& items, const Src& src,
                          const exec::match_set<width>& ms, std::size_t b, std::size_t e) {
    const auto& x = std::get<k>(items).value;
    const gathered_values g = gathered<k>(src, ms);
    for (std::size_t r = b; r < e; ++r) {
      if (g.values && r + gathered_values::ahead < e) g.prefetch(r + gathered_values::ahead);
      v[r] = column_type<k>(eval_expr(x, env{&src, &ms, r}));
    }
  }

  /// Room for `n` values, in huge pages when large (see exec/huge_page_allocator.hpp).
  template <class V>
  static void reserve_output(std::vector<V>& v, std::size_t n) {
    v.reserve(n);
    exec::detail::advise_huge_pages(v.data(), n * sizeof(V));
  }

  template <std::size_t k>
  static auto column(const items_t& items, const Src& src, const exec::match_set<width>& ms) {
    using V = typename detail::column_at<typename table_type::columns, k>::type::type;
    std::vector<V> v;
    reserve_output(v, ms.rows);
    const auto& e = std::get<k>(items).value;
    // The values of a joined table sit at random rows: read a stretch ahead
    // (10^7 rows joined to 10^6, one thread: see docs/performance.md).
    const gathered_values g = gathered<k>(src, ms);
    for (std::size_t r = 0; r < ms.rows; ++r) {
      if (g.values && r + gathered_values::ahead < ms.rows) g.prefetch(r + gathered_values::ahead);
      v.push_back(V(eval_expr(e, env{&src, &ms, r})));
    }
    return v;
  }
};

/// The rows of a projection plan computed eagerly: the final match set and
/// the items to evaluate on it, one row at a time (what `materialize` stores,
/// and what `run` reads when the plan cannot be pipelined).
template <class P, class Src>
struct projection_state {
  using proj = projection_items_of<P, Src>;
  using table_type = typename proj::table_type;
  using row_ref = typename proj::row_ref;
  static constexpr bool pipelined = false;

  typename proj::items_t items;
  Src src;
  exec::match_set<proj::width> ms;

  [[nodiscard]] std::size_t size() const noexcept { return ms.rows; }
  [[nodiscard]] row_ref ref_at(std::size_t r) const noexcept { return positions_at(ms, r); }
  /// The rows a view reads (here all of them) and row `r` of such a block.
  using block = exec::match_set<proj::width>;
  [[nodiscard]] const block& whole() const noexcept { return ms; }
  using reader = match_set_reader<proj::width>;
  [[nodiscard]] static reader reader_of(const block& b) noexcept { return reader(b); }
  [[nodiscard]] static row_ref ref_in(const reader& b, std::size_t r) noexcept { return b.at(r); }

  /// What a row keeps of the state besides its positions: the relations it
  /// reads, by value (a loop's iterator holds them in registers).
  using context = Src;
  [[nodiscard]] const context& row_context() const noexcept { return src; }
  template <fixed_string Name>
  [[nodiscard]] decltype(auto) get(const context& c, const row_ref& ref) const {
    return proj::template get<Name>(items, c, ref);
  }

  /// Every row, evaluated into the result relation's columns.
  [[nodiscard]] relation<table_type> materialize() const { return proj::materialize(items, src, ms); }
};

/// A result computed eagerly (group_by): its columns.
template <class Table, class Cols = typename Table::columns>
struct columns_state;
template <class Table, class... Cols>
struct columns_state<Table, type_list<Cols...>> {
  using table_type = Table;
  using row_ref = std::size_t;
  static constexpr bool pipelined = false;
  static constexpr std::array<std::string_view, sizeof...(Cols)> names{Cols::name.view()...};
  std::tuple<std::vector<typename Cols::type>...> cols;
  std::size_t rows = 0;

  [[nodiscard]] std::size_t size() const noexcept { return rows; }
  [[nodiscard]] row_ref ref_at(std::size_t r) const noexcept { return r; }
  /// The rows a view reads (the state itself) and row `r` of it.
  using block = columns_state;
  [[nodiscard]] const block& whole() const noexcept { return *this; }
  struct reader {};
  [[nodiscard]] static reader reader_of(const block&) noexcept { return {}; }
  [[nodiscard]] static row_ref ref_in(const reader&, std::size_t r) noexcept { return r; }

  struct context {};
  [[nodiscard]] context row_context() const noexcept { return {}; }
  template <fixed_string Name>
  [[nodiscard]] const auto& get(const context&, std::size_t r) const {
    constexpr std::size_t i = find_name(names, Name.view());
    if constexpr (i == npos) {
      (void)unknown_column_in<table_type, spelled<Name>>{};
      return std::get<0>(cols)[r];
    } else {
      return std::get<i>(cols)[r];
    }
  }

  [[nodiscard]] relation<table_type> materialize() const& {
    relation<table_type> out;
    std::apply([&](const auto&... c) { out.assign_columns(c...); }, cols);
    return out;
  }
  [[nodiscard]] relation<table_type> materialize() && {
    relation<table_type> out;
    std::apply([&](auto&... c) { out.assign_columns(std::move(c)...); }, cols);
    return out;
  }
};

/// A group key component: canonical, or `std::optional` of it when the key can
/// be NULL (NULL keys form one group).
template <class V>
using group_component_t =
    std::conditional_t<is_optional_v<V>, std::optional<canonical_key_t<unwrap_optional_t<V>>>, canonical_key_t<V>>;

template <class V>
group_component_t<V> group_component(const V& v) {
  if constexpr (is_optional_v<V>) {
    if (!v) return std::nullopt;
    return group_component_t<V>(canonical(*v));
  } else {
    return canonical(v);
  }
}

template <class R, class V>
void fold_into(std::optional<R>& acc, const V& v, agg_kind::sum) {
  acc = acc ? R(*acc + static_cast<R>(v)) : static_cast<R>(v);
}
template <class R, class V>
void fold_into(std::optional<R>& acc, const V& v, agg_kind::min) {
  if (!acc || value_less(v, *acc)) acc = v;
}
template <class R, class V>
void fold_into(std::optional<R>& acc, const V& v, agg_kind::max) {
  if (!acc || value_less(*acc, v)) acc = v;
}

/// The key a group_by arranges rows by: one component per key expression.
template <class Keys, class Env, class Seq = std::make_index_sequence<std::tuple_size_v<Keys>>>
struct group_key;
template <class Keys, class Env, std::size_t... k>
struct group_key<Keys, Env, std::index_sequence<k...>> {
  template <std::size_t i>
  using component = group_component_t<eval_result_t<typename std::tuple_element_t<i, Keys>::value_type, Env>>;
  using type = std::conditional_t<sizeof...(k) == 1, component<0>, std::tuple<component<k>...>>;
  static type make(const Keys& keys, const Env& e) {
    if constexpr (sizeof...(k) == 1) return group_component(eval_expr(std::get<0>(keys).value, e));
    else return type(group_component(eval_expr(std::get<k>(keys).value, e))...);
  }
};

/// A group key column: the key's value at each group's first row.
template <class V, class Env, class E, class Src, class MS>
std::vector<V> group_key_values(const E& e, const Src& src, const MS& ms, std::span<const std::uint32_t> leaders) {
  std::vector<V> v;
  v.reserve(leaders.size());
  for (std::uint32_t r : leaders) v.push_back(V(eval_expr(e, Env{&src, &ms, r})));
  return v;
}

/// Folds aggregate `item`'s argument at match row `r` into `acc` (a NULL is skipped).
template <class Env, class X, class V, class Src, class MS>
void fold_row(const X& item, std::optional<V>& acc, const Src& src, const MS& ms, std::size_t r) {
  decltype(auto) x = eval_expr(item.arg, Env{&src, &ms, r});
  if constexpr (is_optional_v<decltype(x)>) {
    if (x) fold_into(acc, *x, typename X::kind{});
  } else {
    fold_into(acc, x, typename X::kind{});
  }
}

/// A group's aggregate value of result type `R` from its accumulator.
template <class R, class V>
R accumulated_value(std::optional<V>& acc) {
  if constexpr (is_optional_v<R>) return std::move(acc);
  else return std::move(*acc);  // every group has a row
}

/// The aggregate column of result type `R` from one accumulator per group.
template <class R, class V>
std::vector<R> accumulated_column(std::vector<std::optional<V>>& acc) {
  std::vector<R> v;
  v.reserve(acc.size());
  for (auto& o : acc) v.push_back(accumulated_value<R>(o));
  return v;
}

/// An aggregate column: `count()` from the group sizes; sum/min/max in one
/// pass over the rows through `group_of_row` (NULLs skipped).
template <class R, class Env, class X, class Arr, class Src, class MS>
std::vector<R> aggregate_values(const X& item, const Arr& arr, const Src& src, const MS& ms) {
  const std::size_t groups = arr.group_count();
  if constexpr (std::is_same_v<X, count_t>) {
    std::vector<R> v;
    v.reserve(groups);
    for (std::size_t g = 0; g < groups; ++g) v.push_back(static_cast<R>(arr.group_size(static_cast<exec::group_id>(g))));
    return v;
  } else {
    std::vector<std::optional<unwrap_optional_t<R>>> acc(groups);
    for (std::size_t r = 0; r < ms.rows; ++r) fold_row<Env>(item, acc[arr.group_of_row(r)], src, ms, r);
    return accumulated_column<R>(acc);
  }
}

/// The accumulator a grouped fold keeps for aggregate `X` of result type
/// `R`: count() has none (the group sizes are its values).
template <class X, class R>
struct accumulator_of {
  using type = std::optional<unwrap_optional_t<R>>;
};
template <class R>
struct accumulator_of<count_t, R> {
  using type = std::monostate;
};

/// Folds aggregate `item` at match row `r` into its accumulator.
template <class Env, class X, class A, class Src, class MS>
void fold_aggregate(const X& item, A& acc, const Src& src, const MS& ms, std::size_t r) {
  if constexpr (!std::is_same_v<X, count_t>) fold_row<Env>(item, acc, src, ms, r);
}

template <class X>
struct aggregate_cannot_throw : std::true_type {};  // count()
template <class K, class E>
struct aggregate_cannot_throw<aggregate_fn<K, E>> : cannot_throw<E> {};

/// Whether plan `P`'s group keys and aggregates can be evaluated on several
/// threads: no user function (it could throw, or not be thread-safe).
template <class Keys, class Items>
struct groups_parallel;
template <class... K, class... A>
struct groups_parallel<std::tuple<K...>, std::tuple<A...>>
    : std::bool_constant<(cannot_throw<typename K::value_type>::value && ...) &&
                         (aggregate_cannot_throw<typename A::value_type>::value && ...)> {};

/// The grouped result of plan `P` over the final match set.
///
/// When no key or aggregate calls a user function, the rows are grouped
/// and every aggregate folded in one pass (`exec::fold_groups`), on up to
/// `t.count` threads (rows split by key hash: same groups, same order, and
/// each group folds its rows in row order, so sums are bit for bit those of
/// one thread). Otherwise, on one thread, the keys are grouped first and
/// each aggregate folded in a pass of its own: the exceptions come in the
/// order of those passes.
template <class P, class Src, std::size_t N>
auto compute_groups(const P& p, const Src& src, const exec::match_set<N>& ms, exec::threads t = exec::threads{}) {
  using env = ms_env<plan_bindings_t<P>, Src>;
  using table_type = result_table_t<P>;
  const auto& keys = std::get<P::step_count - 2>(p.steps).keys;
  const auto& items = std::get<P::step_count - 1>(p.steps).items;
  using keys_t = std::remove_cvref_t<decltype(keys)>;
  using items_t = std::remove_cvref_t<decltype(items)>;
  constexpr std::size_t nk = std::tuple_size_v<keys_t>;
  constexpr std::size_t na = std::tuple_size_v<items_t>;

  // The grouping of the rows by key: groups in first-appearance order.
  using gk = group_key<keys_t, env>;
  auto key_at = [&](std::size_t r) -> std::optional<typename gk::type> { return gk::make(keys, env{&src, &ms, r}); };
  columns_state<table_type> st;
  using cols_t = decltype(st.cols);
  // Key columns: the value of each group's first row.
  auto fill_keys = [&](std::span<const std::uint32_t> leaders) {
    [&]<std::size_t... k>(std::index_sequence<k...>) {
      ((std::get<k>(st.cols) = group_key_values<typename std::tuple_element_t<k, cols_t>::value_type, env>(
            std::get<k>(keys).value, src, ms, leaders)),
       ...);
    }(std::make_index_sequence<nk>{});
  };
  if constexpr (groups_parallel<keys_t, items_t>::value) {
    using acc_t = decltype([]<std::size_t... a>(std::index_sequence<a...>) {
      return std::tuple<typename accumulator_of<typename std::tuple_element_t<a, items_t>::value_type,
                                                typename std::tuple_element_t<nk + a, cols_t>::value_type>::type...>{};
    }(std::make_index_sequence<na>{}));
    auto fold = [&](acc_t& acc, std::size_t r) {
      [&]<std::size_t... a>(std::index_sequence<a...>) {
        (fold_aggregate<env>(std::get<a>(items).value, std::get<a>(acc), src, ms, r), ...);
      }(std::make_index_sequence<na>{});
    };
    auto folded = exec::detail::part_count(t, ms.rows) > 1
                      ? exec::fold_groups<typename gk::type>(t, ms.rows, key_at, acc_t{}, fold)
                      : exec::fold_groups<typename gk::type>(ms.rows, key_at, acc_t{}, fold);
    st.rows = folded.group_count();
    fill_keys(folded.leaders);
    [&]<std::size_t... a>(std::index_sequence<a...>) {
      (
          [&] {
            using R = typename std::tuple_element_t<nk + a, cols_t>::value_type;
            auto& col = std::get<nk + a>(st.cols);
            col.reserve(st.rows);
            if constexpr (std::is_same_v<typename std::tuple_element_t<a, items_t>::value_type, count_t>) {
              for (const std::uint32_t n : folded.sizes) col.push_back(static_cast<R>(n));
            } else {
              for (auto& acc : folded.accumulators) col.push_back(accumulated_value<R>(std::get<a>(acc)));
            }
          }(),
          ...);
    }(std::make_index_sequence<na>{});
    return st;
  } else {
    (void)t;
    const auto arr = exec::group_rows<typename gk::type>(ms.rows, key_at);
    st.rows = arr.group_count();
    fill_keys(exec::group_leaders(arr));
    [&]<std::size_t... a>(std::index_sequence<a...>) {
      ((std::get<nk + a>(st.cols) =
            aggregate_values<typename std::tuple_element_t<nk + a, cols_t>::value_type, env>(
                std::get<a>(items).value, arr, src, ms)),
       ...);
    }(std::make_index_sequence<na>{});
    return st;
  }
}

/// Runs plan `p` on `src`: the final state `run` projects and `materialize` stores.
/// (`t`: the threads a group_by may use; joins and filters run on one.)
template <class P, class Src>
auto execute(const P& p, const Src& src, exec_context& ctx, exec::threads t = exec::threads{}) {
  using shape = final_shape<P>;
  using last = typename shape::last;
  static_assert(!is_group_by<last>::value, "joinery: group_by(...) must be followed by aggregate(...)");
  const auto& from_rel = src.template get<typename P::from_table>();
  auto ms = run_row_steps<P, 0>(p, src, exec::match_set<1>::all_rows(from_rel.size()), ctx);
  if constexpr (shape::grouped) {
    return compute_groups(p, src, ms, t);
  } else {
    using state = projection_state<P, Src>;
    if constexpr (shape::selected) {
      return state{std::get<P::step_count - 1>(p.steps).items, src, std::move(ms)};
    } else {
      return state{{}, src, std::move(ms)};
    }
  }
}

// ---- pipelined runs: `run` streams the first table in chunks -------------

template <class E>
constexpr bool checks_left() {
  if constexpr (E::annotated) return E::check_left;
  else return false;
}

/// Whether step `I` can run chunk by chunk with the same results and the
/// same exceptions at the same point: a keyed join (its arrangement and its
/// right-side check are done up front) or a `where`, neither able to throw;
/// a one_to_one join (its left-side check needs the whole left input) and a
/// nested loop run on the whole match set.
template <class P, std::size_t I, class Src>
constexpr bool step_pipelines() {
  using S = std::tuple_element_t<I, decltype(std::declval<P>().steps)>;
  if constexpr (is_join_step<S>::value) {
    return join_plan<P, I, Src>::n_keys != 0 && !checks_left<typename S::expect_type>() &&
           cannot_throw<typename S::condition>::value;
  } else if constexpr (is_where_step<S>::value) {
    return cannot_throw<typename S::condition>::value;
  } else {
    return true;  // select: evaluated lazily by the view either way
  }
}

template <class P, class Src>
constexpr bool plan_pipelines() {
  if constexpr (final_shape<P>::grouped) {
    return false;
  } else {
    return []<std::size_t... I>(std::index_sequence<I...>) {
      return (step_pipelines<P, I, Src>() && ...);
    }(std::make_index_sequence<P::step_count>{});
  }
}

/// Step `I`'s prepared state: a join's arrangement, nothing for other steps.
template <class P, std::size_t I, class Src>
auto prepare_step(const P& p, const Src& src, exec_context& ctx) {
  using S = std::tuple_element_t<I, decltype(p.steps)>;
  if constexpr (is_join_step<S>::value) {
    using JP = join_plan<P, I, Src>;
    using key_t = typename JP::key::type;
    auto arr = build_join_index<P, I>(p, src);
    if constexpr (S::expect_type::annotated) {
      // Right side only (step_pipelines excludes left-side checks).
      const auto conj = conjuncts(std::get<I>(p.steps).on);
      verify_join<P, I, JP>(ctx, arr, src, exec::match_set<JP::width>{}, conj,
                            [](std::size_t) { return std::optional<key_t>{}; });
    }
    return arr;
  } else {
    return std::monostate{};
  }
}

/// Every join's arrangement, built (and verified) in step order.
template <class P, class Src, std::size_t... I>
auto prepare_steps(const P& p, const Src& src, exec_context& ctx, std::index_sequence<I...>) {
  // Braced init: evaluated left to right, so checks throw in step order.
  return std::tuple<decltype(prepare_step<P, I>(p, src, ctx))...>{prepare_step<P, I>(p, src, ctx)...};
}

/// Runs the row steps from step `I` on over `ms` with the prepared arrangements.
template <class P, std::size_t I, class Src, std::size_t N, class Prepared>
auto run_prepared_steps(const P& p, const Src& src, exec::match_set<N>&& ms, const Prepared& prep,
                        exec_context& ctx) {
  if constexpr (I == P::step_count) {
    return std::move(ms);
  } else {
    using S = std::tuple_element_t<I, decltype(p.steps)>;
    if constexpr (is_join_step<S>::value) {
      return run_prepared_steps<P, I + 1>(p, src, apply_join<P, I, true>(p, src, ms, ctx, &std::get<I>(prep)),
                                          prep, ctx);
    } else if constexpr (is_where_step<S>::value) {
      return run_prepared_steps<P, I + 1>(p, src, apply_where<P, I>(p, src, ms), prep, ctx);
    } else {
      return std::move(ms);
    }
  }
}

/// The state of a pipelined `run`: the arrangements are built and checked up
/// front; reading the view in order runs the steps over contiguous chunks of
/// the first table (each chunk's match set stays in cache), in order, so rows
/// come out in the canonical order. Anything needing the whole result
/// (`size`, random access, `materialize`) computes the full match set once,
/// from the same arrangements.
template <class P, class Src>
struct pipelined_state {
  using proj = projection_items_of<P, Src>;
  using table_type = typename proj::table_type;
  using row_ref = typename proj::row_ref;
  static constexpr bool pipelined = true;
  static constexpr std::size_t width = proj::width;
  /// Rows of the first table per chunk: a chunk's positions fit in L1.
  static constexpr std::size_t chunk_rows = 2048;
  using prepared_t =
      decltype(prepare_steps(std::declval<const P&>(), std::declval<const Src&>(), std::declval<exec_context&>(),
                             std::make_index_sequence<P::step_count>{}));

  /// A reader's position in the stream: the current chunk's match set.
  struct cursor {
    exec::match_set<width> ms;
    std::size_t next_from = 0;  // first row of the first table not yet read
    std::exception_ptr error;   // what the last refill threw (rethrown by the view)
  };

  pipelined_state(const P& p, typename proj::items_t it, const Src& s, prepared_t&& prep, exec::threads t = exec::threads{})
      : plan(p), items(std::move(it)), src(s), prepared(std::move(prep)), policy(t) {
    full_.want();
  }

  P plan;
  typename proj::items_t items;
  Src src;
  prepared_t prepared;
  exec::threads policy;  // for the whole match set: contiguous parts of the first table

  /// True when a view reads this state chunk by chunk: one thread only (with
  /// more, the view reads the whole match set, computed by all of them).
  [[nodiscard]] bool streams() const noexcept { return exec::detail::part_count(policy, from_rows()) <= 1; }

  [[nodiscard]] std::size_t from_rows() const { return src.template get<typename P::from_table>().size(); }

  /// The match set of rows [begin, end) of the first table.
  [[nodiscard]] exec::match_set<width> chunk(std::size_t begin, std::size_t end) const {
    exec_context ctx;
    return run_prepared_steps<P, 0>(plan, src, exec::match_set<1>::all_rows(end - begin, begin), prepared, ctx);
  }

  /// Moves `c` to the next chunk with rows; false at the end.
  bool next_chunk(cursor& c) const {
    const std::size_t n = from_rows();
    while (c.next_from < n) {
      const std::size_t b = c.next_from, e = std::min(n, b + chunk_rows);
      c.next_from = e;
      c.ms = chunk(b, e);
      if (c.ms.rows != 0) {
        proj::prefetch_rows(src, c.ms);
        return true;
      }
    }
    return false;
  }

  /// The whole match set (computed on first use, once): the first table cut
  /// into contiguous parts, one per thread, their match sets concatenated in
  /// part order (the canonical order, as on one thread).
  [[nodiscard]] const exec::match_set<width>& full() const {
    return *full_.build_once([&] {
      const std::size_t n = from_rows(), parts = exec::detail::part_count(policy, n);
      if (parts <= 1) return chunk(0, n);
      std::vector<exec::match_set<width>> out(parts);
      auto part = [&](std::size_t q, std::size_t b, std::size_t e) { out[q] = chunk(b, e); };
      exec::detail::run_parts(parts, n, part);
      return exec::concat(out, policy);
    });
  }
  [[nodiscard]] bool full_ready() const noexcept { return full_.built(); }

  [[nodiscard]] std::size_t size() const { return full().rows; }
  [[nodiscard]] row_ref ref_at(std::size_t r) const { return positions_at(full(), r); }
  /// The rows a view reads (a chunk, or the whole result) and row `r` of such a block.
  using block = exec::match_set<width>;
  [[nodiscard]] const block& whole() const { return full(); }
  using reader = match_set_reader<width>;
  [[nodiscard]] static reader reader_of(const block& b) noexcept { return reader(b); }
  [[nodiscard]] static row_ref ref_in(const reader& b, std::size_t r) noexcept { return b.at(r); }

  /// What a row keeps of the state besides its positions: the relations it
  /// reads, by value (a loop's iterator holds them in registers).
  using context = Src;
  [[nodiscard]] const context& row_context() const noexcept { return src; }
  template <fixed_string Name>
  [[nodiscard]] decltype(auto) get(const context& c, const row_ref& ref) const {
    return proj::template get<Name>(items, c, ref);
  }

  [[nodiscard]] relation<table_type> materialize() const { return proj::materialize(items, src, full(), policy); }

 private:
  exec::detail::built_on_demand<exec::match_set<width>> full_;
};

/// What `run` reads: a pipelined state when every step allows it, else the
/// eagerly computed one (execute).
template <class P, class Src>
auto run_state(const P& p, const Src& src, exec_context& ctx, exec::threads t = exec::threads{}) {
  using shape = final_shape<P>;
  if constexpr (plan_pipelines<P, Src>()) {
    using state = pipelined_state<P, Src>;
    auto prep = prepare_steps(p, src, ctx, std::make_index_sequence<P::step_count>{});
    typename state::proj::items_t items{};
    if constexpr (shape::selected) items = std::get<P::step_count - 1>(p.steps).items;
    return std::make_shared<const state>(p, std::move(items), src, std::move(prep), t);
  } else {
    auto st = execute(p, src, ctx, t);
    return std::make_shared<const decltype(st)>(std::move(st));
  }
}

}  // namespace joinery::detail
