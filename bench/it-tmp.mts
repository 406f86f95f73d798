import { measureImportTimes } from './import-time.ts';
console.log(measureImportTimes(3));
