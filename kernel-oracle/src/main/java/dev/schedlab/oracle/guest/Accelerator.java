package dev.schedlab.oracle.guest;

import java.util.List;

/**
 * How QEMU runs the guest's vCPUs. TCG (multi-threaded binary translation) boots everywhere but
 * runs a vCPU far slower than a real CPU, and guest time is wall time: interval-driven behaviour
 * (ticks, balance intervals) is real, throughput is not. KVM is the real CPU, where the host lets a
 * guest have it (nested virtualisation can hang the guest early in boot).
 */
public enum Accelerator {
  /** QEMU's multi-threaded TCG with an Intel-vendor CPU model (QEMU warns that AMD lacks SMT). */
  TCG(List.of("-accel", "tcg,thread=multi", "-cpu", "max,vendor=GenuineIntel")),
  /** The host's KVM with the host CPU model. */
  KVM(List.of("-accel", "kvm", "-cpu", "host"));

  private final List<String> qemuArguments;

  Accelerator(List<String> qemuArguments) {
    this.qemuArguments = qemuArguments;
  }

  /** The QEMU arguments selecting this accelerator and its CPU model. */
  public List<String> qemuArguments() {
    return qemuArguments;
  }

  /** The name as users write it: {@code tcg} or {@code kvm}. */
  public String id() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
