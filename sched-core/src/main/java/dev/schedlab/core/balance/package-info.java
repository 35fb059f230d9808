/**
 * Fair-class load balancing: periodic ({@code sched_balance_domains}), newidle
 * ({@code sched_balance_newidle}) and active balancing, over the engine's runqueues through
 * {@link dev.schedlab.core.balance.BalanceHost}.
 */
package dev.schedlab.core.balance;
