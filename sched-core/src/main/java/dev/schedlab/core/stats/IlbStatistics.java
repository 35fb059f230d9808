package dev.schedlab.core.stats;

/**
 * What NOHZ idle balancing did in a run: the kicks busy CPUs sent ({@code kick_ilb()}), which CPUs
 * {@code find_new_ilb()} chose, and the {@code _nohz_idle_balance()} passes the kicks caused.
 *
 * @param kickCalls {@code kick_ilb()} calls
 * @param balanceKicks calls with {@code NOHZ_BALANCE_KICK}
 * @param statsOnlyKicks calls with {@code NOHZ_STATS_KICK} but not BALANCE
 * @param nextOnlyKicks calls with only {@code NOHZ_NEXT_KICK}
 * @param noIlb calls that found no idle CPU to kick
 * @param alreadyPending calls whose ILB already held the flags or had an IPI in flight
 * @param choices calls that chose a CPU
 * @param choicesWithBusySibling choices of a CPU whose SMT core was not fully idle then
 * @param ipis kick IPIs sent
 * @param ipisDropped IPIs that found their CPU no longer idle
 * @param cpusExamined CPUs {@code find_new_ilb()} examined in total
 * @param runs {@code _nohz_idle_balance()} passes run for kicks
 * @param cpusVisited CPUs those passes visited
 * @param balanceCalls {@code sched_balance_domains()} calls those passes made
 * @param localBlockedLoadRuns local passes from {@code nohz_run_idle_balance()} (NEWILB)
 * @param chosenPerCpu how often each CPU was chosen
 */
public record IlbStatistics(
    long kickCalls,
    long balanceKicks,
    long statsOnlyKicks,
    long nextOnlyKicks,
    long noIlb,
    long alreadyPending,
    long choices,
    long choicesWithBusySibling,
    long ipis,
    long ipisDropped,
    long cpusExamined,
    long runs,
    long cpusVisited,
    long balanceCalls,
    long localBlockedLoadRuns,
    long[] chosenPerCpu) {

  public IlbStatistics {
    chosenPerCpu = chosenPerCpu.clone();
  }

  @Override
  public long[] chosenPerCpu() {
    return chosenPerCpu.clone();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof IlbStatistics that
        && toString().equals(that.toString())
        && java.util.Arrays.equals(chosenPerCpu, that.chosenPerCpu);
  }

  @Override
  public int hashCode() {
    return toString().hashCode();
  }

  @Override
  public String toString() {
    return "IlbStatistics[kicks="
        + kickCalls
        + " (balance "
        + balanceKicks
        + ", stats "
        + statsOnlyKicks
        + ", next "
        + nextOnlyKicks
        + "), noIlb="
        + noIlb
        + ", pending="
        + alreadyPending
        + ", choices="
        + choices
        + " (busy sibling "
        + choicesWithBusySibling
        + "), ipis="
        + ipis
        + " (dropped "
        + ipisDropped
        + "), examined="
        + cpusExamined
        + ", runs="
        + runs
        + ", visited="
        + cpusVisited
        + ", balanceCalls="
        + balanceCalls
        + ", localRuns="
        + localBlockedLoadRuns
        + "]";
  }
}
