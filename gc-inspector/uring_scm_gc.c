// SPDX-License-Identifier: GPL-2.0
/*
 * uring_scm_gc: the AF_UNIX GC inspector.
 *
 * debugfs/uring_scm_gc/stats   read: the GC's state, "key value" lines
 * debugfs/uring_scm_gc/collect write anything: run a collection and return
 *                              when it has finished
 *
 * Needs a kernel with CONFIG_IO_URING_SCM and the series' patch 8, which
 * exports unix_gc_get_stats() and unix_gc_flush().
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <net/af_unix.h>

#include "compat.h"

static struct dentry *uscm_dir;

static int uscm_stats_show(struct seq_file *m, void *v)
{
	struct unix_gc_stats st;

	unix_gc_get_stats(&st);
	seq_printf(m, "inflight %u\n", st.inflight);
	seq_printf(m, "vertices %u\n", st.vertices);
	seq_printf(m, "edges %u\n", st.edges);
	seq_printf(m, "rings %u\n", st.tables);
	seq_printf(m, "ring_files %u\n", st.table_files);
	seq_printf(m, "maybe_cyclic %u\n", st.maybe_cyclic);
	seq_printf(m, "gc_runs %lu\n", st.runs);
	seq_printf(m, "collected_sccs %lu\n", st.sccs);
	seq_printf(m, "collected_sockets %lu\n", st.sockets);
	seq_printf(m, "collected_rings %lu\n", st.rings);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(uscm_stats);

static ssize_t uscm_collect_write(struct file *file, const char __user *buf,
				  size_t count, loff_t *ppos)
{
	unix_gc_flush();
	return count;
}

static const struct file_operations uscm_collect_fops = {
	.owner	= THIS_MODULE,
	.write	= uscm_collect_write,
	.llseek	= noop_llseek,
};

static int __init uscm_init(void)
{
	uscm_dir = debugfs_create_dir("uring_scm_gc", NULL);
	debugfs_create_file("stats", 0444, uscm_dir, NULL, &uscm_stats_fops);
	debugfs_create_file("collect", 0200, uscm_dir, NULL, &uscm_collect_fops);
	return 0;
}

static void __exit uscm_exit(void)
{
	debugfs_remove_recursive(uscm_dir);
}

module_init(uscm_init);
module_exit(uscm_exit);
MODULE_DESCRIPTION("AF_UNIX GC inspector for the io_uring SCM backport");
MODULE_LICENSE("GPL");
