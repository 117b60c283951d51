/** A worker entry that fails while loading, as a broken build would. */
throw new Error('this entry cannot load');
