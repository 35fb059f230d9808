/**
 * Fair-class load balancing: periodic ({@code sched_balance_domains}), newidle ({@code
 * sched_balance_newidle}) and active balancing, over the engine's runqueues through {@link
 * dev.schedlab.core.balance.BalanceHost}, entered through {@link
 * dev.schedlab.core.balance.LoadBalancer}, which wires pieces named for the kernel functions they
 * model.
 */
package dev.schedlab.core.balance;
