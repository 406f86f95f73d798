import { startSession } from './auth/session.ts';

console.log(startSession('ada'));
console.log(startSession('nobody')); // TypeError: Cannot read properties of null (reading 'active')
