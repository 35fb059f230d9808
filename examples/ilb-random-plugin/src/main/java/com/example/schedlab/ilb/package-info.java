/** An example third-party plugin: a random idle CPU as the NOHZ idle load balancer. */
package com.example.schedlab.ilb;
